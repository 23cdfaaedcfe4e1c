/** What an edit sends: the content properties the program changed, against what state says it manages (diff and update share it). */
import { changedProperties } from "../../../dynamic/diffInputs";
import { TemplateFields } from "../../../schemas/template";
import { REGISTRY_LOGIN_ON_CREATE, TEMPLATE_CONTENT, TemplateContentProperty, TemplateInputs } from "../templateArgs";
import { asCheckedIn, clearedFields, clearedValue, toTemplateFields } from "../shared/templateMapping";

type Props = Record<string, any>;

/**
 * What state says the program manages, without what earlier versions stored that was no setting
 * of the program's:
 * - the registry login fields as empty strings when unused: read as absent, so an upgrade shows
 *   no change; unless the program sets that empty string itself (the contract tells callers to
 *   send "" when unused): then it is the program's, and the same on both sides;
 * - `null` (`jupyterDir`, `volumeInfo`), which the program now means as not set (see
 *   `canonicalTemplateInputs`) and the service stores as not set: read as absent, so an upgrade
 *   neither edits the template nor replaces the instances on it;
 * - a script or readme with CRLF line ends or a BOM, as template files checked out on Windows
 *   gave it before they were read as committed (`asCheckedIn`): the same as the program's text in
 *   that form, so an upgrade does not edit every such template (a new hash replaces the instances
 *   on it). The next edit of the template sends the program's text.
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
 * The content properties an edit sends: those whose value differs from what state says the
 * program manages, but for one the program stops setting that has no cleared value (a registry
 * login field), which is left as the service has it: a change of that alone sends nothing, and an
 * edit of unchanged content would still give a new hash, replacing every Instance on the template.
 * The diff reports changes by this too, so a preview never plans an edit (every Instance on the
 * template shown as replaced) that the update then does not make.
 */
export function editedProperties(managed: Props, desired: TemplateInputs): TemplateContentProperty[] {
    const changed = changedProperties(managed, desired, TEMPLATE_CONTENT);
    return TEMPLATE_CONTENT.filter((p) => changed.includes(p) && (desired[p] !== undefined || clearedValue(p) !== undefined));
}

/** The body of the edit: the program's content, and a cleared value for each property it stopped setting. */
export function editFields(managed: Props, known: object, desired: TemplateInputs): Partial<TemplateFields> {
    // A null an earlier version stored may stand for a value it failed to clear: cleared with the edit.
    const removed = TEMPLATE_CONTENT.filter((p) => (managed[p] !== undefined || (known as Props)[p] === null) && desired[p] === undefined);
    return { ...clearedFields(removed), ...toTemplateFields(desired) };
}
