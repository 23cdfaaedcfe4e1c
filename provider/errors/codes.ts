/**
 * Every kind of failure the provider reports, by its stable code: what it means and what to do.
 * Each error carries its code (`error.code`), the engine prints it after the message, and
 * docs/errors.md is generated from this table (scripts/referenceDocs.ts). A code is never renamed
 * or reused: scripts, CI jobs and policies match on it.
 */
export interface ErrorCodeEntry {
    /** The section of docs/errors.md it is listed under. */
    group: ErrorGroup;
    /** What happened, in one sentence. */
    means: string;
    /** What the person running `pulumi up` does about it. */
    whatToDo: string;
}

export const ERROR_GROUPS = {
    program: "The program",
    money: "Renting and money",
    lost: "Lost responses",
    state: "State and the account",
    key: "Keys and configuration",
    service: "Service responses",
    install: "Installation and the provider itself",
} as const;
export type ErrorGroup = keyof typeof ERROR_GROUPS;

export const ERROR_CODES = {
    // The program
    invalid_input: {
        group: "program",
        means: "A property of the program is not what the provider or the service accepts; the message names it.",
        whatToDo: "Correct the named property. Most of these are caught by `pulumi preview`; this one could only be told once its value was known.",
    },
    image_not_found: {
        group: "program",
        means: "The image's registry says the image or its tag does not exist; nothing was rented.",
        whatToDo: "Correct `image` (repository, tag or digest), or set `checkImage: false` if the registry is wrong about it.",
    },
    image_pull_failed: {
        group: "program",
        means: "The machine could not pull the image (pull access denied, manifest unknown); the instance was destroyed and no other machine was tried.",
        whatToDo: "Correct `image`, or give the Template the registry login a private image needs, then run `pulumi up` again.",
    },
    template_not_visible: {
        group: "program",
        means: "The template hash an Instance names is not one the API key can see: deleted, mistyped, or another account's private template.",
        whatToDo: "Use a `Template` resource's `hashId`, or a hash that `searchTemplates` finds with this key.",
    },
    volume_unavailable: {
        group: "program",
        means: "The volume an Instance mounts is not on the account, or is on another machine than the offer.",
        whatToDo: "Give a volume of this account, and an offer on the volume's machine (or rent by `offer`, which keeps to it).",
    },
    template_file_invalid: {
        group: "program",
        means: "A template file in git does not read as a template; the message names the file and the problem.",
        whatToDo: "Fix the named file (a leftover merge conflict is a common cause) and run the command again.",
    },
    // Renting and money
    offer_gone: {
        group: "money",
        means: "The offer was taken or left the market before it could be rented; nothing was rented for it.",
        whatToDo: "Rent by `offer` (a query) so another match is taken, or pick a current offer with `searchOffers`.",
    },
    no_offer_matches: {
        group: "money",
        means: "No offer on the market matches the query (or none is left to try); nothing was rented.",
        whatToDo: "Widen the query's filters; `searchOffers` (or `searchVolumeOffers`) shows what the market has.",
    },
    price_above_ceiling: {
        group: "money",
        means: "Offers match the query, but each costs more than its price ceiling; the message names the cheapest. Nothing was rented.",
        whatToDo: "Raise the ceiling to at least the cheapest price named, or widen the query.",
    },
    create_attempts_exhausted: {
        group: "money",
        means: "Each machine tried failed to start the instance, up to `maxCreateAttempts`; each was destroyed, and none is left running.",
        whatToDo: "Read the machines' errors in the message. Exclude those machines or hosts in the query, or raise `maxCreateAttempts`.",
    },
    instance_not_ready: {
        group: "money",
        means: "The instance was rented but did not reach the wanted state in time; it is kept in state, so it is never forgotten while it may bill.",
        whatToDo: "Run `pulumi up` again to go on waiting, `pulumi refresh` to read its state, or `pulumi destroy` to stop paying for it.",
    },
    in_use: {
        group: "money",
        means: "The service refuses to delete something others still use: a volume mounted by an instance, a template other accounts hold.",
        whatToDo: "Destroy what uses it first (make the instance depend on the volume so Pulumi orders them), or `pulumi state delete` it to stop managing it.",
    },
    delete_unconfirmed: {
        group: "money",
        means: "The service answered a delete (or said not found), but the account still lists the resource; it stays in state, and may still bill.",
        whatToDo: "Run `pulumi destroy` (or `pulumi up`) again; if it persists, delete it in the console and `pulumi refresh`.",
    },
    workers_remain: {
        group: "money",
        means: "A worker group or endpoint was deleted, but some of its workers (instances the service rented for it) could not be destroyed; they are named, and still billed.",
        whatToDo: "Run `pulumi destroy` again (the resource stays in state until its workers are gone), or destroy the named instances in the console.",
    },
    // Lost responses
    outcome_unknown: {
        group: "lost",
        means: "A request that may act (a create, an edit) was sent, and its response was lost; it was not sent again blindly.",
        whatToDo: "Run `pulumi up` again: the provider looks for what the request may have made before it sends anything.",
    },
    lost_create_undecided: {
        group: "lost",
        means: "A create's response was lost, and the lookup for what it made could not settle before its deadline; nothing was sent again.",
        whatToDo: "Run `pulumi up` again: the next run finds what the create made (the service records it) and takes it over, or creates it once.",
    },
    lost_create_not_made: {
        group: "lost",
        means: "A create's response was lost, and the account shows it made nothing; nothing was sent again.",
        whatToDo: "Run `pulumi up` again; it creates the resource once.",
    },
    secret_lost: {
        group: "lost",
        means: "An API key's create response was lost: the key it made is kept in state, but its secret, which the service shows only once, is gone.",
        whatToDo: "Run `pulumi up` again: it replaces the key with a new one and revokes the one whose secret was lost.",
    },
    edit_unsettled: {
        group: "lost",
        means: "An edit's response was lost, or the template changed meanwhile, and reading it back could not tell whether the edit took.",
        whatToDo: "Run `pulumi up` again: it reads the template and edits it only where it still differs from the program.",
    },
    // State and the account
    deleted_elsewhere: {
        group: "state",
        means: "A resource in state is no longer on the account: deleted in the console, by the CLI or by another stack.",
        whatToDo: "Run `pulumi refresh` to drop it from state, then `pulumi up` to make it again.",
    },
    already_on_account: {
        group: "state",
        means: "The account holds this (an SSH key's text) once, and has it already.",
        whatToDo: "Keep one resource for it, adopt the existing one, or remove it from the account; the message says which holds it.",
    },
    adopt_not_found: {
        group: "state",
        means: "The id given to `adopt` names nothing on this account.",
        whatToDo: "Check the id and the API key's account, or remove `adopt` to create the resource anew.",
    },
    adopt_mismatch: {
        group: "state",
        means: "What `adopt` names differs from the program in something only a replacement changes.",
        whatToDo: "Make the program say what the resource has (or leave the property out), then run the command again.",
    },
    adopt_taken: {
        group: "state",
        means: "What `adopt` names is held by another resource, or is another account's.",
        whatToDo: "Run `pulumi up` for the resource that holds it, or use an alias to move it between resources.",
    },
    not_on_account: {
        group: "state",
        means: "`pulumi import` was given an id this account (the API key's) does not have.",
        whatToDo: "Check the id (the message says where ids are listed) and that the key is of the account that has it.",
    },
    not_importable: {
        group: "state",
        means: "The resource cannot be imported, for a reason of its kind (an API key's secret is shown only once).",
        whatToDo: "Create it with the program instead; the message says what else serves.",
    },
    // Keys and configuration
    config_invalid: {
        group: "key",
        means: "The provider's configuration is missing or unsafe: no API key, a base URL or proxy that is not usable.",
        whatToDo: "Set the named setting (`pulumi config set --secret vastai:apiKey …`, `vastai:baseUrl`, `HTTPS_PROXY`).",
    },
    key_refused: {
        group: "key",
        means: "The service refused the API key: wrong, expired or revoked (or a scoped key without the route's permission).",
        whatToDo: "Set `vastai:apiKey` (or `VAST_API_KEY`) to a valid key of the account.",
    },
    permission_missing: {
        group: "key",
        means: "The API key is valid, but lacks the permission this call needs; the message names it.",
        whatToDo: "Use a key that has the named permission (an `ApiKey` resource can grant it).",
    },
    key_of_other_account: {
        group: "key",
        means: "The resource belongs to another account than the API key in use, so it is not taken as deleted.",
        whatToDo: "Set `vastai:apiKey` to a key of the account the message names; `pulumi state delete` the resource if it is really gone.",
    },
    // Service responses
    not_found: {
        group: "service",
        means: "The service said what was asked for does not exist.",
        whatToDo: "Check the id; a resource in state that is gone is dropped by `pulumi refresh`.",
    },
    not_the_api: {
        group: "service",
        means: "A 404 or 410 that does not come from the service's API (no API error in it): a wrong base URL or a proxy's page. Nothing is taken as gone.",
        whatToDo: "Check `vastai:baseUrl` (or `VAST_URL`) and any proxy between this machine and the service.",
    },
    not_about_it: {
        group: "service",
        means: "A not-found that names something other than the resource asked about; the resource is not taken as gone.",
        whatToDo: "Run the command again; if it persists, the message says what the service found missing.",
    },
    endpoint_retired: {
        group: "service",
        means: "The service retired the endpoint this version calls.",
        whatToDo: "Update pulumi-vastai to a newer version.",
    },
    rate_limited: {
        group: "service",
        means: "The service answered 429 after the provider's own retries: requests too frequent for the key.",
        whatToDo: "Run the command again; lower `--parallel`, or share fewer keys between stacks that run at once.",
    },
    invalid_request: {
        group: "service",
        means: "The service refused the request's arguments; the message has its words.",
        whatToDo: "Correct the property the service's words point at.",
    },
    request_over_limit: {
        group: "service",
        means: "The provider refused to send a request that breaks a documented limit of the service; the service saw nothing.",
        whatToDo: "Correct the named field to fit the limit the message states.",
    },
    request_rejected: {
        group: "service",
        means: "The service refused the request for a reason of no other kind (a conflict, `success: false` with an unfamiliar code).",
        whatToDo: "Read the service's words in the message; run the command again once what it names is settled.",
    },
    server_error: {
        group: "service",
        means: "The service answered 5xx after the provider's retries.",
        whatToDo: "Run the command again later; the provider never re-sends a create without looking for what it made.",
    },
    network_error: {
        group: "service",
        means: "No response: the connection was refused, reset or timed out after the provider's retries.",
        whatToDo: "Check the network, `vastai:baseUrl` and any `HTTPS_PROXY`, then run the command again.",
    },
    unexpected_response: {
        group: "service",
        means: "The response was not what the service promises: not JSON, or a required field missing or of another type.",
        whatToDo: "Run the command again; if it persists, report it with the message (it names the field).",
    },
    // Installation and the provider itself
    version_too_old: {
        group: "install",
        means: "The state names a resource kind this installed version does not have.",
        whatToDo: "Install the pulumi-vastai version that created it, or a newer one.",
    },
    not_in_package: {
        group: "install",
        means: "The engine asked the plugin for a resource type or function the package does not have.",
        whatToDo: "Use the type tokens in the package schema (`schema.json`); install a newer version for newer ones.",
    },
    plugin_incomplete: {
        group: "install",
        means: "The provider plugin is not installed whole (its package.json is missing).",
        whatToDo: "Reinstall the plugin (`pulumi plugin install`, or `npm install pulumi-vastai`).",
    },
    cli_usage: {
        group: "install",
        means: "The `pulumi-vastai` command line was given an unknown command or option.",
        whatToDo: "Run `pulumi-vastai --help` for its usage.",
    },
    export_refused: {
        group: "install",
        means: "`pulumi-vastai export-templates` wrote nothing: the message says why (a key file, a folder, files with other content).",
        whatToDo: "Do what the message says; `--force` overwrites files whose content differs.",
    },
    internal: {
        group: "install",
        means: "A failure the provider did not expect: a bug.",
        whatToDo: "Report it with the message; nothing in it is secret.",
    },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
    return typeof value === "string" && Object.hasOwn(ERROR_CODES, value);
}
