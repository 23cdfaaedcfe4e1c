import { EmuResponse, ok } from "../response";
import { HandlerContext } from "./context";

/**
 * `GET /api/v0/gpu_names/unique/`, asked without a key: the GPU models on the market, each once,
 * as offer searches name them (`"RTX 4090"`, with its space). The vendor CLI turns them into its
 * `gpu_name=RTX_4090` spellings.
 */
export function gpuNames(ctx: Omit<HandlerContext, "caller">): EmuResponse {
    const names = new Set([...ctx.emu.model.offers.values()].map((offer) => offer.listing.gpu_name));
    return ok({ success: true, gpu_names: [...names].sort() });
}
