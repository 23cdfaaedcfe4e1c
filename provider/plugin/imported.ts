import { Props } from "./wire";

/**
 * The values an import takes from the program (docs/design/import.md). An import reads what the
 * service shows; an input it does not show back as a program writes it (an instance's `onstart`,
 * a template's registry password) is named under TAKEN in the read's outputs and inputs. Its value
 * is then the program's: at the first plan after the import, the one it gives then; at every plan
 * after that, the one that first plan recorded in state's inputs, so a change is a change. The mark
 * stays in the outputs until an update writes the program's values there.
 */
export const TAKEN = "takenAtImport";

/** The properties a bag names as taken from the program, or undefined when it names none. */
export function takenOf(props: Props): string[] | undefined {
    const taken = props[TAKEN];
    return Array.isArray(taken) ? taken.filter((p): p is string => typeof p === "string") : undefined;
}

/** An import's read answer: its outputs and inputs naming what the program's values will stand for. */
export function markTaken(read: { props: Props; inputs: Props }, taken: readonly string[]): { props: Props; inputs: Props } {
    if (taken.length === 0) return read;
    return { props: { ...read.props, [TAKEN]: [...taken] }, inputs: { ...read.inputs, [TAKEN]: [...taken] } };
}

/** A bag without the mark: state's outputs as a kind's read takes them, a program's inputs. */
export function withoutTakenMark(props: Props): Props {
    const { [TAKEN]: _, ...rest } = props;
    return rest;
}

/** `props` without the mark, each taken property with its value in `values` (none there, none here). */
function withValues(props: Props, taken: readonly string[], values: Props): Props {
    const filled = withoutTakenMark(props);
    for (const p of taken) {
        if (values[p] === undefined) delete filled[p];
        else filled[p] = values[p];
    }
    return filled;
}

/**
 * The old inputs a kind's check compares with. At the first check after an import (olds are the
 * read's inputs, which name what is taken), each taken property as the program gives it now; the
 * program's bag never carries the mark (`pulumi import` checks the read's inputs as the program's).
 */
export function checkedAfterImport(olds: Props, news: Props): { olds: Props; news: Props } {
    const program = withoutTakenMark(news);
    const taken = takenOf(olds);
    return { olds: taken ? withValues(olds, taken, program) : olds, news: program };
}

/**
 * State's outputs as a kind's diff and update read them: each taken property with the program's
 * value, as recorded in state's inputs (`oldInputs`) by the first plan after the import; at that
 * plan (state's inputs are still the read's, which name what is taken), as the program gives it.
 * Without the engine's old inputs (an engine before they were sent), nothing is taken: the plan
 * shows the property as changed, never a change unseen.
 */
export function outputsAfterImport(olds: Props, oldInputs: Props, news: Props): Props {
    const taken = takenOf(olds);
    if (!taken) return olds;
    return withValues(olds, taken, takenOf(oldInputs) ? news : oldInputs);
}

/** Whether this diff is the first plan after an import: state's inputs are still those the import read. */
export function firstPlanAfterImport(olds: Props, oldInputs: Props): boolean {
    return takenOf(olds) !== undefined && takenOf(oldInputs) !== undefined;
}

/**
 * A refresh of an imported resource, from the kind's read of it (`read`, given state without the
 * mark): the mark stays in the outputs, and each taken property keeps in the inputs the value state's
 * inputs hold, the program's (the read cannot tell it, and would drop it or put the service's
 * spelling in its place). Outputs never receive those values: the engine keeps an output of a
 * refresh secret only where the outputs before it were, and they held none of these, which a
 * program may give as secrets (`env`, `onstart`). An update writes them into the outputs, with the
 * program's secrets, and the mark then goes.
 */
export function refreshedAfterImport(read: { props: Props; inputs: Props }, state: Props, inputs: Props): { props: Props; inputs: Props } {
    const taken = takenOf(state);
    if (!taken) return read;
    const kept = withValues(read.inputs, taken, inputs);
    return { props: { ...read.props, [TAKEN]: taken }, inputs: takenOf(inputs) ? { ...kept, [TAKEN]: taken } : kept };
}
