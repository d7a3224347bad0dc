// Runs the Khronos glTF validator (npm package gltf-validator) on files.
// Usage: NODE_PATH=DIR/node_modules node tests/gltf-validate.js FILE...
// Prints one line per file and `N passed, N failed`; errors fail, warnings
// and infos are listed but pass.
const fs = require('fs');
const validator = require('gltf-validator');
(async () => {
    let passed = 0, failed = 0;
    for (const file of process.argv.slice(2)) {
        const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 100});
        const i = report.issues;
        const ok = i.numErrors === 0;
        console.log(`${ok ? 'ok  ' : 'FAIL'} ${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos`);
        for (const m of i.messages.filter(m => m.severity <= 1).slice(0, 10))
            console.log(`     ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
        if (ok) passed++; else failed++;
    }
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
})();
