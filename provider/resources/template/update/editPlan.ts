/** What an edit sends: the content properties the program changed, against what state says it manages (diff and update share it). */
import { changedProperties, sameValue } from "../../../dynamic/diffInputs";
import { formatEnvFlags } from "../../../schemas/envFlags";
import { TemplateFields } from "../../../schemas/template";
import { REGISTRY_LOGIN_ON_CREATE, TEMPLATE_CONTENT, TemplateContentProperty, TemplateInputs } from "../templateArgs";
import { asCheckedIn, clearedFields, clearedValue, toTemplateFields } from "../common/templateMapping";

type Props = Record<string, any>;

/**
 * What state says the program manages, without the blanks, nulls and CRLF texts earlier versions
 * stored, so that an upgrade edits nothing (docs/design/template-edits.md).
 */
export function withoutLegacyBlanks(olds: object, news: object): Props {
    const managed: Props = Object.fromEntries(Object.entries(olds).filter(([, value]) => value !== null));
    const desired = news as Props;
    for (const property of Object.keys(REGISTRY_LOGIN_ON_CREATE)) if (managed[property] === "" && desired[property] !== "") delete managed[property];
    for (const property of ["onstart", "readme"]) {
        const stored = managed[property];
        if (typeof stored === "string" && stored !== desired[property] && asCheckedIn(stored) === desired[property]) managed[property] = desired[property];
    }
    return managed;
}

/**
 * The content properties an edit sends: those changed, but for one the program stops setting that
 * has no cleared value (a registry login field), or that state holds cleared already (`desc: ""`,
 * `sshDirect: false`, an empty env, as an import reads a template back): clearing it again would
 * change nothing but the hash. The diff uses it too (docs/design/template-edits.md).
 */
export function editedProperties(managed: Props, desired: TemplateInputs): TemplateContentProperty[] {
    const changed = changedProperties(managed, desired, TEMPLATE_CONTENT);
    const clears = (p: TemplateContentProperty) => clearedValue(p) !== undefined && !isCleared(p, managed[p]);
    return TEMPLATE_CONTENT.filter((p) => changed.includes(p) && (desired[p] !== undefined || clears(p)));
}

/** Whether `value` is what the service shows for `property` not set: its cleared value (an env map, as its flag string). */
function isCleared(property: TemplateContentProperty, value: unknown): boolean {
    const asSent = property === "env" && value !== null && typeof value === "object" ? formatEnvFlags(value as Record<string, string>) : value;
    return sameValue(asSent, clearedValue(property));
}

/** The body of the edit: the program's content, and a cleared value for each property it stopped setting. */
export function editFields(managed: Props, known: object, desired: TemplateInputs): Partial<TemplateFields> {
    // A null an earlier version stored may stand for a value it failed to clear: cleared with the edit.
    const removed = TEMPLATE_CONTENT.filter((p) => (managed[p] !== undefined || (known as Props)[p] === null) && desired[p] === undefined);
    return { ...clearedFields(removed), ...toTemplateFields(desired) };
}
