/** What a handler answers: a status and a JSON body, or plain text (429s come as text). */
export interface EmuResponse {
    status: number;
    body: unknown;
    /** Send `body` as it is, not as JSON. */
    text?: boolean;
    /** Defaults to application/json, or text/plain for `text`. */
    contentType?: string;
    headers?: Record<string, string>;
}

export const ok = (body: unknown): EmuResponse => ({ status: 200, body });

/** The live service's failure shape: `{success: false, error, msg}`. */
export const fail = (status: number, error: string, msg: string): EmuResponse => ({
    status,
    body: { success: false, error, msg },
});

export const invalidArgs = (msg: string): EmuResponse => fail(400, "invalid_args", msg);

/** The response's body as sent on the wire. */
export function responseText(response: EmuResponse): string {
    return response.text ? String(response.body) : JSON.stringify(response.body);
}

/**
 * What a web server or proxy in front of the API answers for a path it does not know (a wrong
 * base URL, a typo in a path): an HTML page, unlike the API's JSON for a missing resource.
 */
export const notFoundPage = (): EmuResponse => ({
    status: 404,
    body: "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>",
    text: true,
    contentType: "text/html; charset=utf-8",
});
