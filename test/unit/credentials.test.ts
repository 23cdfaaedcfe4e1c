import { credentialAssignments, looksLikeCredential } from "../../provider/env/credentials";

describe("what looks like a credential in a template's env", () => {
    it.each([
        ["HF_TOKEN", "hf_AbCdEfGhIjKlMnOpQrStUv", true],
        ["WANDB_API_KEY", "0123456789abcdef0123", true],
        ["DB_PASSWORD", "correct horse", true],
        ["openaiApiKey", "not-a-known-shape-but-long", true],
        ["ANYTHING", "ghp_0123456789abcdefghij", true],
        ["DATABASE_URL", "postgres://trainer:s3cret@db.internal:5432/runs", true],
        // What GPU templates commonly set, and must not be taken for a credential.
        ["TOKENIZERS_PARALLELISM", "false", false],
        ["OPEN_BUTTON_TOKEN", "1", false],
        ["HF_HOME", "/workspace/hf", false],
        ["JUPYTER_PASSWORD", "$JUPYTER_PASSWORD", false],
        ["SSH_KEY_FILE", "/root/.ssh/id_ed25519", false],
        ["SSH_PUBLIC_KEY", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI", false],
        ["DATABASE_URL", "postgres://db.internal:5432/runs", false],
        ["-p 8888:8888", "1", false],
    ])("%s=%s: %s", (name, value, expected) => {
        expect(looksLikeCredential(name, value)).toBe(expected);
    });

    it("finds the names a script or flag string sets to one in plain text", () => {
        const onstart = '#!/bin/bash\nexport HF_TOKEN="hf_AbCdEfGhIjKlMnOpQrStUv"\nTOKENIZERS_PARALLELISM=false python x.py; WANDB_API_KEY=0123456789abcdef0123 wandb login\nhuggingface-cli login --token "$HF_TOKEN"\n';
        expect(credentialAssignments(onstart)).toEqual(["HF_TOKEN", "WANDB_API_KEY"]);
        expect(credentialAssignments("-p 8888:8888 -e HF_HOME=/hf -e GITHUB_TOKEN=ghp_0123456789abcdefghij")).toEqual(["GITHUB_TOKEN"]);
    });
});
