import * as vast from "pulumi-vastai";

// Takes instance 5000123, rented in the console or with the vendor CLI, into the stack: nothing is rented.
const trainer = new vast.Instance("trainer", { adopt: 5000123, image: "pytorch/pytorch:latest", label: "trainer" });
export const status = trainer.actualStatus;
