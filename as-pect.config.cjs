// as-pect (AssemblyScript unit tests of the core's pure functions): `npm run test:core`.
// The compiler settings (as-pect's transform, the minimal runtime the core uses) are in
// as-pect.asconfig.json, the file as-pect's CLI reads by default (`--as-config`).
module.exports = {
  /** Test files: each one is compiled to its own module with as-pect's test library. */
  entries: ["assembly/tests/**/*.spec.ts"],
  /** Files added to every test compilation. */
  include: ["assembly/tests/**/*.include.ts"],
  /** Never test vendored code. */
  disclude: [/node_modules/],
  /** The functions under test use nothing from the host; a module that links a host import it
   * does not call under test (json/stream.ts reads memory there) gets one answering 0. */
  async instantiate(memory, createImports, instantiate, binary) {
    const t = Object.fromEntries(
      WebAssembly.Module.imports(new WebAssembly.Module(binary))
        .filter((i) => i.module === "t")
        .map((i) => [i.name, () => 0]),
    );
    return instantiate(binary, createImports({ env: { memory }, t }));
  },
  /** Keep the test binaries in memory. */
  outputBinary: false,
};
