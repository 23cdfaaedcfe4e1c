import type * as pulumi from "@pulumi/pulumi";
import { ProviderContext } from "../../../dynamic/context";
import { goneResult, readResult } from "../../../dynamic/readResult";
import { createdBy, keyAccount } from "../../sameAccount";
import { InstanceOutputs } from "../instanceArgs";
import { definedOnly, inputsFromRecord, inputsOf, instanceOutputs, normalizeInputs, rentalIn, reportedByService, unfinishedUntilRunning } from "../common/instanceMapping";
import { endedWarning, frozenWarning } from "../wait/readiness";
import { instanceUnlessGone } from "../common/instanceLookup";
import { sharedInstanceReader } from "../common/sharedInstanceReader";
import { holdsInState } from "../common/heldInstances";

// An instance read (a refresh), its steps in order: find it, or confirm it is gone; record who made it.

/** The instance as the service shows it now, or gone only in the service's own words (instanceLookup.ts). */
export async function readInstance(ctx: ProviderContext, id: string, props: Partial<InstanceOutputs>): Promise<pulumi.dynamic.ReadResult<InstanceOutputs>> {
    const instanceId = Number(props.instanceId ?? id);
    const vast = ctx.client();
    // Who made it stays as state has it: the account, or the mark of this same key (nothing
    // asked). Otherwise (another key, which sees it only if it is the same account's, or state
    // from before either was kept) the key's account is asked once per process while the list is read.
    const sameKey = props.accountId === undefined && props.keyMark === ctx.keyMark();
    const account = props.accountId !== undefined || sameKey ? Promise.resolve(props.accountId) : keyAccount(ctx);
    holdsInState(vast.baseUrl, instanceId);
    // Reads share one list call per round; one missing from it is gone only as instanceLookup.ts
    // says (the service's own words, three times, with the account's key); anything else throws.
    const listed = await sharedInstanceReader(vast).get(instanceId);
    const record = listed ?? (await instanceUnlessGone(ctx, vast, instanceId, props));
    if (!record) {
        return goneResult<InstanceOutputs>();
    }
    const warning = endedWarning(record.id, record, props.offerId !== undefined) ?? frozenWarning(record.id, record);
    if (warning) ctx.log.warn(warning);
    const inputs = normalizeInputs(inputsFromRecord(record, inputsOf(props)));
    // A bid change still unconfirmed stays so: nothing read back says which bid the instance has.
    const reported = {
        ...rentalIn(props),
        ...definedOnly(reportedByService(record)),
        ...definedOnly({ bidUnconfirmed: props.bidUnconfirmed }),
        ...unfinishedUntilRunning(props, record),
        // Who made it, as this read tells: the account once known, else this key's mark (it sees the instance).
        accountId: undefined,
        keyMark: undefined,
        ...(sameKey ? { keyMark: props.keyMark } : await createdBy(ctx, account)),
    };
    return readResult(String(record.id), instanceOutputs(inputs, record.id, reported, props.effectiveEnv), inputs);
}
