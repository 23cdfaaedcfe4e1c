import { VastClient } from "../../../client/vastClient";
import { ProviderContext } from "../../../dynamic/context";
import { CreateRecord, JournalEntry, forget, interruptedEntries, sameAccount, unreadableEntries } from "./createJournal";
import { instanceUnlessGone } from "../common/instanceLookup";
import { ChosenOffer, PLACEMENT_ENV, findPlaced, instancesPlacedBy } from "../common/placement";

// Interrupted creates left in the journal: the next create with the same inputs takes the instance
// over; every other operation names it until then (docs/design/instance-create.md, "Take-over").

/**
 * The instance an interrupted create with these inputs made, with the offer it was rented on, when
 * it still exists; undefined when the create was not interrupted, or made nothing that is left.
 * Found by its id when the rent had answered, by its placement token otherwise (a failed look is
 * tried again, as after a lost create).
 */
export async function resumeInterrupted(ctx: ProviderContext, vast: VastClient, journal: CreateRecord): Promise<ChosenOffer | undefined> {
    const { offer, token, label } = journal;
    if (!journal.interrupted || offer === undefined || token === undefined) return undefined;
    const { offerId } = offer;
    const instanceId =
        journal.instanceId !== undefined
            ? (await instanceUnlessGone(ctx, vast, journal.instanceId, { accountId: journal.accountId }))?.id
            : await findPlaced(ctx, vast, { offerId, label, token }, 0, false);
    if (instanceId === undefined && journal.accountId === undefined && journal.keyMark !== ctx.keyMark()) {
        // Made with another key, whose account is not known: "not there" may only mean that this key cannot see it.
        journal.release();
        ctx.log.progress(`a \`pulumi up\` stopped at ${journal.startedAt} while creating this instance on offer ${offerId}; this key finds nothing it rented, so one is rented now, and the note stays for the key that made it`);
        return undefined;
    }
    if (instanceId === undefined) {
        journal.cleared();
        ctx.log.progress(`a \`pulumi up\` stopped at ${journal.startedAt} while creating this instance on offer ${offerId}; nothing it rented is left, so one is rented now`);
        return undefined;
    }
    journal.placed(instanceId);
    ctx.log.warn(
        `instance ${instanceId} on offer ${offerId} was rented for this resource by a \`pulumi up\` that stopped (${journal.startedAt}) ` +
            "before its create returned, so no state holds it: taken over instead of renting another",
    );
    return { ...offer, takenOver: instanceId };
}

/**
 * Whether an interrupted create's journal entry made with another key is this key's to take over: only when
 * this key sees what it rented (a key sees its own account's instances only), found by id, or by
 * its placement token when the rent never answered. A look that fails fails the create before any
 * rent, as a failed take-over look does: the journal entry may be this account's, and its instance running.
 */
export async function seesJournaledInstance(ctx: ProviderContext, vast: VastClient, entry: JournalEntry): Promise<boolean> {
    if (entry.token === undefined && entry.instanceId === undefined) return false; // no rent was sent
    return typeof (await stillThere(ctx, vast, entry)) === "number";
}

let reminded = false;

/** How long an operation waits for the reminder's looks at most, at live speed: its warnings are a courtesy. */
const REMINDER_WAIT_MS = 10_000;

/**
 * Once per process: a warning for each interrupted create whose instance may still run, saying
 * what to do, waited for at most REMINDER_WAIT_MS. An entry is forgotten only when its instance,
 * known by id, is found gone with a key of the account the entry names; one never answered (its
 * token only) is named until it is taken over or deleted. A look that fails proves nothing: the
 * warning is given all the same.
 */
export async function remindInterrupted(ctx: ProviderContext, vast: VastClient): Promise<void> {
    if (reminded) return;
    reminded = true;
    // Not this version's, or not readable: what it says cannot be looked at, so it is named as it is.
    for (const { file, reason } of unreadableEntries()) ctx.log.warn(unreadable(file, reason));
    const reminding = (async () => {
        for (const { file, data } of interruptedEntries(vast.baseUrl)) {
            const found = (await sameAccount(ctx, data)) ? await stillThere(ctx, vast, data).catch(() => "unknown" as const) : "unknown";
            // Forgotten only on the word of a key of the account that made it (or of that key itself).
            if (found === undefined && (data.accountId !== undefined || (data.keyMark !== undefined && data.keyMark === ctx.keyMark()))) forget(file);
            // Not found with another key proves nothing: the journal entry's instance is named all the same.
            else ctx.log.warn(leftRunning(data, typeof found === "number" ? found : data.instanceId, file));
        }
    })();
    await Promise.race([reminding, ctx.clock.sleep(REMINDER_WAIT_MS)]);
}

/**
 * The entry's instance id when it is there, undefined when it is gone, "unknown" when a look
 * cannot tell: by id, or by its placement token (found, or unknown: absence from one listing
 * proves nothing of a rent whose answer never came).
 */
async function stillThere(ctx: ProviderContext, vast: VastClient, entry: JournalEntry): Promise<number | undefined | "unknown"> {
    if (entry.instanceId !== undefined) return (await instanceUnlessGone(ctx, vast, entry.instanceId, { accountId: entry.accountId }))?.id;
    if (entry.token === undefined) return undefined; // no rent was sent
    return (await instancesPlacedBy(vast, entry.label, entry.token))[0] ?? "unknown";
}

function leftRunning(entry: JournalEntry, instanceId: number | undefined, file: string): string {
    const which =
        instanceId !== undefined
            ? `instance ${instanceId} on offer ${entry.offerId}`
            : `an instance on offer ${entry.offerId} (if its rent went through: ${PLACEMENT_ENV}=${entry.token} in its env)`;
    // Pulumi's own remedy, when the engine still lists the create as pending: the URN is in its warning.
    const importIt = instanceId !== undefined ? `, or \`pulumi refresh --import-pending-creates <urn> ${instanceId}\` (the URN Pulumi's pending-operation warning names)` : "";
    return (
        `${which} was rented by a \`pulumi up\` that stopped (${entry.startedAt}) before its create returned, so no stack's state ` +
        `holds it, and it may still be billed. \`pulumi up\` with the program as it was then takes it over${importIt}; otherwise ` +
        `destroy it in the Vast.ai console. This warning ends once it is taken over or gone (or delete ${file})`
    );
}

function unreadable(file: string, reason: string): string {
    return (
        `${file} cannot be read as a note of an instance create (${reason}). If it is one of a \`pulumi up\` that stopped before its ` +
        "create returned, its instance may still be billed outside any stack, and no `pulumi up` can take it over: look at what it says " +
        `(the offer, and ${PLACEMENT_ENV} in the instance's env), destroy that instance in the Vast.ai console if no stack holds it, then delete the file`
    );
}
