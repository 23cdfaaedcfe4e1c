import * as path from "path";
import * as vast from "pulumi-vastai";
const templates = vast.templatesFromFiles(path.join(__dirname, "templates"));
new vast.Instance("trainer-1", { offerId: 123456, templateHashId: templates["pytorch-trainer"].hashId });
