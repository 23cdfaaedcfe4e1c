import { MiniEngine, Program } from "../engine/miniEngine";
import { eventually } from "./fixtures";

/**
 * Starts an `up` and kills its host once `until` holds, as a cancelled CI job or a second Ctrl-C
 * does; the `up` must fail. What the killed run left is for the test to find on the emulator.
 */
export async function upKilled(engine: MiniEngine, program: Program, until: () => boolean): Promise<void> {
    const up = engine.up(program).then(
        () => undefined,
        (e: Error) => e,
    );
    await eventually(async () => until());
    await engine.host.kill();
    if ((await up) === undefined) throw new Error("the up finished before its host was killed");
}
