// Jest globalTeardown: removes the run's journal directory that buildFirst.js made.
const fs = require("fs");

module.exports = async () => {
    const dir = process.env.VASTAI_TEST_JOURNALS;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
};
