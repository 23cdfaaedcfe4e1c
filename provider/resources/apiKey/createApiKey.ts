/** An ApiKey create, its steps in order: list the keys, send the create, recover a lost response, map the response to outputs. */
import { ProviderContext } from "../../dynamic/context";
import { oneCreateAtATime } from "../lostCreate";
import { accountOnceMade, keyAccount } from "../sameAccount";
import { ApiKeyInputs, ApiKeyOutputs } from "./apiKeyArgs";
import { inputsOf, withAccount } from "./apiKeyRecords";
import { createFailure, createdHere } from "./createRecovery";

export async function createApiKey(ctx: ProviderContext, inputs: ApiKeyInputs): Promise<{ id: string; outs: ApiKeyOutputs }> {
    const { name, permissions } = inputsOf(inputs);
    // One name at a time: a lost create must not take the key a same-named create is still waiting for.
    return oneCreateAtATime(`API key ${name}`, async () => {
        const vast = ctx.client();
        // Whose key this is, asked (once per process) while the listing and the create are under way.
        const account = keyAccount(ctx);
        // A listing first: a key a lost response made is newer than all of these
        // (docs/design/key-lost-create.md). If it cannot be read, nothing is sent.
        const before = Math.max(0, ...(await vast.account.listApiKeys()).map((k) => k.id));
        const sentAt = ctx.clock.now();
        let created: { id: number; key: string };
        try {
            created = await vast.account.createApiKey({ name, permissions });
        } catch (e) {
            throw await createFailure(ctx, vast, e, { inputs, name, permissions, sentAt, before, account });
        }
        createdHere.add(created.id);
        // A line for the person running `pulumi up`: which key, never its secret.
        ctx.log.progress(`API key ${created.id} "${name}" created with ${Object.keys(permissions.api).join(", ")}`);
        return { id: String(created.id), outs: withAccount({ name, permissions, keyId: created.id, key: created.key }, await accountOnceMade(ctx, account)) };
    });
}
