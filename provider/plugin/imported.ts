import { Props } from "./wire";

/**
 * The values an import takes from the program (docs/design/import.md). An import reads what the
 * service shows; an input it does not show back as a program writes it (an instance's `onstart`,
 * a template's registry password) is named under TAKEN in the read's outputs and inputs. Its value
 * is then the program's: at the first plan after the import, the one it gives then; at every plan
 * after that, the one that first plan recorded in state's inputs, so a change is a change.
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

function withoutMark(props: Props): Props {
    const { [TAKEN]: _, ...rest } = props;
    return rest;
}

/** `props` without the mark, each taken property with its value in `values` (none there, none here). */
function withValues(props: Props, taken: readonly string[], values: Props): Props {
    const filled = withoutMark(props);
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
    const program = withoutMark(news);
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
 * A refresh of an imported resource: its outputs with the program's values that state's inputs
 * hold (the mark goes, and the resource reads as one Pulumi made); the mark kept while state's
 * inputs are still the read's (a `pulumi import` with no `up` since).
 */
export function refreshedAfterImport(props: Props, inputs: Props): { props: Props; stillTaken?: string[] } {
    const taken = takenOf(props);
    if (!taken) return { props };
    if (takenOf(inputs)) return { props: withoutMark(props), stillTaken: taken };
    return { props: withValues(props, taken, inputs) };
}
