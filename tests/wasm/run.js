// Runs the wasm32 unit-test module under node's WebAssembly:
//   node tests/wasm/run.js build/wasm/plumbob-tests.wasm
// It gives the module the few host functions of tests/wasm/libc.c (module
// "env": write, getenv, file_open/size/read/close for the corpus), calls its
// pb_wasm_run export and exits with its result.
//   node tests/wasm/run.js --imports FILE.wasm   prints the module's imports as JSON
//   node tests/wasm/run.js --exports FILE.wasm   prints its exports as JSON
//   node tests/wasm/run.js --core plumbob.wasm   calls the core module with no imports
'use strict';
const fs = require('fs');

const args = process.argv.slice(2);
if (args[0] === '--imports' || args[0] === '--exports') {
    const mod = new WebAssembly.Module(fs.readFileSync(args[1]));
    const list = args[0] === '--imports' ? WebAssembly.Module.imports(mod) : WebAssembly.Module.exports(mod);
    process.stdout.write(JSON.stringify(list) + '\n');
    process.exit(0);
}

if (args[0] === '--core') {
    // the core module alone, with an empty import object: a few calls
    const core = new WebAssembly.Instance(new WebAssembly.Module(fs.readFileSync(args[1])), {}).exports;
    const mem = core.memory;
    const at = mem.buffer.byteLength - 4096; // above the stack and data: unused
    const put = (s) => {
        const b = Buffer.from(s + '\0', 'latin1');
        new Uint8Array(mem.buffer, at, b.length).set(b);
        return at;
    };
    const cstr = (p) => {
        const m = new Uint8Array(mem.buffer);
        let e = p;
        while (m[e]) e++;
        return Buffer.from(m.subarray(p, e)).toString('latin1');
    };
    const out = {
        version: core.plumbob_version_number(),
        port: cstr(core.plumbob_port_name()),
        pelvis: (core.plumbob_fnv32_str(put('b__Pelvis__')) >>> 0).toString(16),
        truncated: cstr(core.plumbob_result_str(1)),
    };
    process.stdout.write(JSON.stringify(out) + '\n');
    process.exit(0);
}

let memory = null;
const files = [];
const bytes = (p, n) => new Uint8Array(memory.buffer, p, n);
const text = (p, n) => Buffer.from(bytes(p, n)).toString('latin1');
const env = {
    write(fd, p, n) {
        fs.writeSync(fd === 2 ? 2 : 1, Buffer.from(bytes(p, n)));
    },
    getenv(p, n, dst, cap) {
        const v = process.env[text(p, n)];
        if (v === undefined) return -1;
        const b = Buffer.from(v, 'latin1').subarray(0, cap);
        bytes(dst, b.length).set(b);
        return b.length;
    },
    file_open(p, n) {
        try {
            files.push(fs.readFileSync(text(p, n)));
            return files.length - 1;
        } catch (e) {
            return -1;
        }
    },
    file_size(h) {
        return files[h].length;
    },
    file_read(h, pos, dst, n) {
        const f = files[h];
        const k = Math.max(0, Math.min(n, f.length - pos));
        bytes(dst, k).set(f.subarray(pos, pos + k));
        return k;
    },
    file_close(h) {
        files[h] = null;
    },
};

const mod = new WebAssembly.Module(fs.readFileSync(args[0]));
const instance = new WebAssembly.Instance(mod, { env });
memory = instance.exports.memory;
process.exitCode = instance.exports.pb_wasm_run();
