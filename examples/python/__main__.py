"""The quickstart (examples/quickstart) in Python, through the provider plugin.

A training template, an SSH key, a dataset volume and a GPU instance rented by need that mounts
it: the volume on the cheapest storage under a ceiling, the instance the cheapest verified RTX 4090
or 3090 with at least 20 GB and a reliable host on the volume's machine, under a price ceiling.
Offer ids are short-lived, so the program names what it needs, not an offer. Every edit of the
template gives it a new hash id; the instance references that hash, so it is replaced to follow
the template, and the volume, with the datasets, stays.

    pulumi config set --secret vastai:apiKey <key>
    pulumi config set sshPublicKey "$(cat ~/.ssh/id_ed25519.pub)"   # unless the account holds it already
"""
import pulumi
import pulumi_vastai as vastai

config = pulumi.Config()
image_tag = config.require("imageTag")
ssh_public_key = config.get("sshPublicKey")
max_price_per_hour = config.get_float("maxPricePerHour") or 0.5

trainer = vastai.Template(
    "trainer",
    name="quickstart-trainer",
    image="pytorch/pytorch",
    tag=image_tag,
    env={"HF_HOME": "/workspace/hf", "-p 8888:8888": "1"},
    runtype="ssh",
    ssh_direct=True,
    recommended_disk_space=40,
    onstart="pip install -q transformers datasets",
)

# The key goes on the account before the instance starts, so the instance has it from the first
# boot. Leave sshPublicKey unset when the account holds the key already: an SshKey of a text the
# account holds fails (it would remove the key on destroy).
laptop = vastai.SshKey("laptop", public_key=ssh_public_key) if ssh_public_key else None

# Datasets that outlive the instance: 50 GB at most $0.10 per GB-month.
datasets = vastai.Volume(
    "datasets",
    offer={"max_price_per_gb_month": 0.1},
    size_gb=50,
)

gpu = vastai.Instance(
    "gpu",
    offer={
        "filters": {
            "gpu_name": {"in": ["RTX 4090", "RTX 3090"]},
            "gpu_ram": {"gte": 20000},
            "reliability": {"gte": 0.98},
        },
        "order": [["dph_total", "asc"]],
        "max_price_per_hour": max_price_per_hour,   # USD per hour: nothing above it is rented
    },
    template_hash_id=trainer.hash_id,
    env={"WANDB_MODE": "offline"},
    disk=64,
    label="quickstart",
    volumes=[{"volume": datasets.id, "mount_path": "/data"}],
    ready_timeout_seconds=1200,
    opts=pulumi.ResourceOptions(depends_on=[laptop] if laptop else []),
)

# What the marketplace has now that the instance's query would match: read at every preview, it
# rents nothing. The instance makes its own search at create.
matching_now = vastai.search_offers_output(
    filters={
        "gpu_name": {"in": ["RTX 4090", "RTX 3090"]},
        "gpu_ram": {"gte": 20000},
        "reliability": {"gte": 0.98},
        "dph_total": {"lte": max_price_per_hour},
    },
    order=[["dph_total", "asc"]],
    limit=3,
)

pulumi.export("templateHashId", trainer.hash_id)
pulumi.export("instanceId", gpu.instance_id)
pulumi.export(
    "gpu",
    pulumi.Output.format("{0} × {1} at ${2}/hour (offer {3})", gpu.num_gpus, gpu.gpu_name, gpu.dph_total, gpu.rented_offer_id),
)
pulumi.export("status", gpu.actual_status)
pulumi.export("sshCommand", pulumi.Output.format("ssh -p {0} root@{1}", gpu.ssh_port, gpu.ssh_host))
pulumi.export(
    "datasets",
    pulumi.Output.format(
        "volume {0}, {1} GB on machine {2} at ${3}/GB-month, at /data",
        datasets.volume_id,
        datasets.size_gb,
        datasets.machine_id,
        datasets.storage_cost_per_gb_month,
    ),
)
pulumi.export(
    "matchingNow",
    matching_now.offers.apply(lambda offers: [f"{o.num_gpus} × {o.gpu_name} at ${o.dph_total}/hour" for o in offers]),
)
