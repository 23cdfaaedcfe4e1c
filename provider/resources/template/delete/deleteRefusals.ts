/** The refusals the service documents for a template delete, said with what to do. */
import { VastAuthError, VastConfigError, VastError, VastInvalidArgsError } from "../../../client/errors";
import { ProviderContext } from "../../../dynamic/context";
import { assertSameAccount } from "../../sameAccount";
import { ProviderError } from "../../../errors/providerError";

const serviceSaid = (e: unknown): string => (e instanceof VastError ? (e.serviceMessage ?? "") : "");

/** The service's refusal of a delete by a key not the creator's. */
const creatorOnly = (e: unknown): boolean => e instanceof VastAuthError && /only be deleted by their creator/i.test(serviceSaid(e));

/**
 * The two refusals the service documents for a template delete, said with what to do: the template
 * stays, so the resource stays in state until the user decides.
 */
function refusedDelete(e: unknown, templateId: number): Error | undefined {
    const said = serviceSaid(e);
    if (e instanceof VastInvalidArgsError && /other users are still using it/i.test(said)) {
        return new ProviderError(
            "in_use",
            `${e.message}. Other accounts use template ${templateId} (they created one with the same content), and the service keeps it for them. ` +
                "To stop managing it, remove it from the stack's state (`pulumi state delete <urn>`); to keep it, leave it in the program",
            { cause: e },
        );
    }
    if (creatorOnly(e)) {
        return new ProviderError(
            "key_of_other_account",
            `vastai: delete template ${templateId} failed: the service says only the template's creator can delete it ("${said}"), ` +
                "and the stack's key belongs to another account. Delete it with the creator's key, or remove it from the stack's state (`pulumi state delete <urn>`)",
            { cause: e },
        );
    }
    return undefined;
}

/** What a failed delete throws: `e`, or the refusal said with what to do. */
export async function deleteFailure(ctx: ProviderContext, e: unknown, templateId: number, creatorId: number | undefined): Promise<unknown> {
    // Refused to a key not the creator's: with the creator in state, say which account's key
    // is in use and which one deletes it, as a read does (the service's 401 names neither).
    if (creatorOnly(e)) {
        await assertSameAccount(ctx, `template ${templateId}`, creatorId).catch((lookup: Error) => {
            if (lookup instanceof VastConfigError) throw lookup;
        });
    }
    return refusedDelete(e, templateId) ?? e;
}
