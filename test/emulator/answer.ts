/** What a handler answers: a status and a JSON body, or plain text (429s come as text). */
export interface Answer {
    status: number;
    body: unknown;
    text?: boolean;
    headers?: Record<string, string>;
}

export const ok = (body: unknown): Answer => ({ status: 200, body });

/** The live service's failure shape: `{success: false, error, msg}`. */
export const fail = (status: number, error: string, msg: string): Answer => ({
    status,
    body: { success: false, error, msg },
});

export const invalidArgs = (msg: string): Answer => fail(400, "invalid_args", msg);
