/**
 * A provisioning script of ordinary shell text, `targetChars` long: functions, heredocs, tests,
 * quoting, a tab, a line continuation and some UTF-8. It only writes under `$WORK`, so a test can
 * run it; `$WORK/finished` ends up holding the number of shard configs it wrote.
 */
export function provisioningScript(targetChars = 20 * 1024): string {
    const models = ["llama-3-8b", "mistral-7b", "qwen2-7b", "phi-3-mini", "gemma-2-9b", "falcon-7b"];
    const head = [
        "set -eu",
        ': "${WORK:?WORK must be set}"',
        'mkdir -p "$WORK/configs" "$WORK/logs" "$WORK/models"',
        "# Café-grade setup ☕: keep every step idempotent, so a restart is harmless.",
        'log() { printf \'[%s] %s\\n\' "$(date +%H:%M:%S)" "$*" >> "$WORK/logs/setup.log"; }',
        "fetch_part() {",
        '\tlocal model="$1" part="$2"',
        '\t[ -f "$WORK/models/$model.part$part" ] || : > "$WORK/models/$model.part$part"',
        "}",
    ];
    const body: string[] = [];
    let shards = 0;
    const tail = (n: number) => ["", 'log "all shards prepared"', `ls "$WORK/configs" | wc -l | tr -d ' ' > "$WORK/finished"`, `# ${n} shards`];
    for (let i = 1; ; i++) {
        const model = models[i % models.length];
        const seqLen = 512 * (1 + (i % 4));
        const block = [
            "",
            `# shard ${i}: ${model}, sequence length ${seqLen}`,
            `log "preparing shard ${i} (${model}, \\"seq ${seqLen}\\")"`,
            `cat > "$WORK/configs/shard-${String(i).padStart(4, "0")}.yaml" <<'YAML'`,
            `model: ${model}`,
            `shard: ${i}`,
            `seq_len: ${seqLen}`,
            `batch_size: ${8 * (1 + (i % 3))}`,
            `learning_rate: ${(0.0001 * (1 + (i % 7))).toFixed(4)}`,
            "YAML",
            `fetch_part ${model} ${i} && \\`,
            `  log "shard ${i} ready"`,
        ];
        if ([...head, ...body, ...block, ...tail(i)].join("\n").length > targetChars) break;
        body.push(...block);
        shards = i;
    }
    const text = [...head, ...body, ...tail(shards)].join("\n");
    // Pad the last comment so the script is exactly the size asked for.
    return text + " ".repeat(targetChars - text.length - 1) + "\n";
}
