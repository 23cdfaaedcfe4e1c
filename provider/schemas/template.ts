import { z } from "zod";
import { offerFiltersSchema } from "./offer";

/** Run types a template or instance can use (docs/service-contract.md §2.2). */
export const RUNTYPES = ["ssh", "jupyter", "args"] as const;

/** Volume attachment (docs/service-contract.md §2.3). */
export const volumeInfoSchema = z.strictObject({
    create_new: z.boolean(),
    volume_id: z.number().int(),
    size: z.number().positive().optional(),
    mount_path: z.string().min(1),
});
export type VolumeInfo = z.infer<typeof volumeInfoSchema>;

/**
 * Template fields as sent on create (docs/service-contract.md §2.2). Strict: a misspelt field is an error here,
 * not a value the service silently ignores.
 */
export const templateFieldsSchema = z.strictObject({
    name: z.string().min(1),
    image: z.string().min(1),
    /** `""` for none: the console keeps a template whose image names its own tag so. */
    tag: z.string().optional(),
    desc: z.string().optional(),
    readme: z.string().optional(),
    /** Flag string: `-e NAME=value -p 8080:8080`. */
    env: z.string().optional(),
    onstart: z.string().optional(),
    runtype: z.enum(RUNTYPES).optional(),
    args_str: z.string().optional(),
    ssh_direct: z.boolean().optional(),
    use_ssh: z.boolean().optional(),
    jup_direct: z.boolean().optional(),
    jupyter_dir: z.string().nullable().optional(),
    use_jupyter_lab: z.boolean().optional(),
    /**
     * The contract calls the three login fields required; unused ones are sent as empty strings.
     * The vendor CLI never sends the user or password and the live service takes that: they are
     * sent anyway so that a service built to the contract takes the create too.
     */
    docker_login_repo: z.string(),
    docker_login_user: z.string(),
    docker_login_pass: z.string(),
    href: z.string().optional(),
    repo: z.string().optional(),
    /** Machine search filters: conditions on offer fields, checked as an offer search checks them. */
    extra_filters: offerFiltersSchema.optional(),
    recommended_disk_space: z.number().positive().optional(),
    private: z.boolean().optional(),
    /** An interface hint only; it has no effect on instance creation. */
    volume_info: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type TemplateFields = z.infer<typeof templateFieldsSchema>;

export const templateCreateRequestSchema = templateFieldsSchema;
export type TemplateCreateRequest = TemplateFields;

/** Edit: the current `hash_id` plus the fields to change; omitted fields keep their values. */
export const templateEditRequestSchema = templateFieldsSchema.partial().extend({
    hash_id: z.string().min(1),
});
export type TemplateEditRequest = z.infer<typeof templateEditRequestSchema>;

/**
 * A template as the service returns it. Lenient: fields the service adds never break a read, and
 * only `id` and `hash_id` are required.
 */
export const templateRecordSchema = z.looseObject({
    id: z.number().int(),
    hash_id: z.string().min(1),
    name: z.string().nullish(),
    image: z.string().nullish(),
    tag: z.string().nullish(),
    desc: z.string().nullish(),
    readme: z.string().nullish(),
    env: z.string().nullish(),
    onstart: z.string().nullish(),
    runtype: z.string().nullish(),
    args_str: z.string().nullish(),
    ssh_direct: z.boolean().nullish(),
    use_ssh: z.boolean().nullish(),
    jup_direct: z.boolean().nullish(),
    jupyter_dir: z.string().nullish(),
    use_jupyter_lab: z.boolean().nullish(),
    docker_login_repo: z.string().nullish(),
    docker_login_user: z.string().nullish(),
    /**
     * Never kept, should an answer carry it: a registry password must not reach a program through
     * `searchTemplates`, or outputs through a read.
     */
    docker_login_pass: z.unknown().transform(() => undefined).optional(),
    href: z.string().nullish(),
    repo: z.string().nullish(),
    extra_filters: z.unknown().optional(),
    recommended_disk_space: z.number().nullish(),
    private: z.boolean().nullish(),
    volume_info: z.unknown().optional(),
    creator_id: z.number().int().nullish(),
    created_at: z.number().nullish(),
    count_created: z.number().int().nullish(),
    default_tag: z.string().nullish(),
    recent_create_date: z.number().nullish(),
    recommended: z.boolean().nullish(),
});
export type TemplateRecord = z.infer<typeof templateRecordSchema>;

/** `success` is false when the service answered with an existing template of the same content. */
export const templateCreateResponseSchema = z.looseObject({
    success: z.boolean().nullish(),
    msg: z.string().nullish(),
    template: templateRecordSchema,
});

/**
 * The edit answer may leave out `id`; the new `hash_id` is the one thing it must carry, beside its
 * `template` or in it (the service's API reference documents `{success, hash_id, msg, template}`).
 */
export const templateEditResponseSchema = z
    .looseObject({
        hash_id: z.string().min(1).nullish(),
        template: templateRecordSchema.partial({ id: true, hash_id: true }),
    })
    .refine((answer) => !!(answer.hash_id || answer.template.hash_id), { message: "no hash_id in the answer or its template", path: ["template", "hash_id"] })
    // The one beside the template first: the reference calls it the "New MD5 hash of the updated template".
    .transform((answer) => ({ ...answer, template: { ...answer.template, hash_id: (answer.hash_id || answer.template.hash_id) as string } }));

export const templateSearchResponseSchema = z.looseObject({
    templates_found: z.number().int().nullish(),
    templates: z.array(templateRecordSchema),
});
