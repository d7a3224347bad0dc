// Runs the Khronos glTF validator (npm package gltf-validator) on files, and
// with --plumbob BIN plumbob's own checker (`BIN check FILE`) on each too.
// Usage: NODE_PATH=DIR/node_modules node tests/gltf-validate.js
//            [--plumbob BIN] [--inputs LIST] FILE...
// A file passes when the validator finds no error (warnings and infos are
// listed but pass) and, with --plumbob, plumbob's checker passes it too: a
// file one refuses and the other passes is a disagreement, and fails.  LIST
// (tests/gltf-test-inputs) names, by glob of the file's base name, the
// intentional test inputs among them (glTF made broken or unusual on purpose
// by a test, not exports): one of those that both pass passes, any other is
// reported but neither passes nor fails.
// Prints one line per file and `N passed, N failed`.
const fs = require('fs');
const path = require('path');
const {spawnSync} = require('child_process');
const validator = require('gltf-validator');

const args = process.argv.slice(2);
let plumbob = null, inputs = [];
const files = [];
for (let k = 0; k < args.length; k++) {
    if (args[k] === '--plumbob') plumbob = args[++k];
    else if (args[k] === '--inputs') {
        for (const line of fs.readFileSync(args[++k], 'utf8').split('\n')) {
            const m = line.match(/^\s*([^#\s]\S*)\s*(.*)$/);
            if (!m) continue;
            const re = new RegExp('^' + m[1].replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$');
            inputs.push({glob: m[1], re, why: m[2]});
        }
    } else files.push(args[k]);
}

(async () => {
    let passed = 0, failed = 0, intentional = 0;
    for (const file of files) {
        let errors, warnings = 0, infos = 0, messages = [];
        try {
            const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {maxIssues: 100});
            const i = report.issues;
            errors = i.numErrors; warnings = i.numWarnings; infos = i.numInfos;
            messages = i.messages.filter(m => m.severity <= 1).slice(0, 10);
        } catch (e) { // not glTF at all: the validator rejects the promise
            errors = 1;
            messages = [{severity: 0, code: 'NOT_GLTF', pointer: '', message: String(e)}];
        }
        const khronos = errors === 0;
        let own = null, ownSays = '';
        if (plumbob) {
            const r = spawnSync(plumbob, ['check', file], {encoding: 'utf8'});
            own = r.status === 0;
            ownSays = (r.stdout + r.stderr).trim().split('\n')[0] || `exit ${r.status}`;
        }
        const input = inputs.find(x => x.re.test(path.basename(file)));
        const what = `${file}: Khronos ${errors} errors, ${warnings} warnings, ${infos} infos` +
            (plumbob ? `; plumbob check: ${own ? 'passes' : 'refuses'}` : '');
        let verdict;
        if (khronos && (own === null || own)) {
            verdict = 'ok  ';
            passed++;
        } else if (input) {
            verdict = 'input';
            intentional++;
        } else {
            verdict = 'FAIL';
            failed++;
        }
        console.log(`${verdict} ${what}` + (verdict === 'input' ? ` (an intentional test input: ${input.glob} in the inputs list)` : '') +
            (verdict === 'FAIL' && own !== null && khronos !== own ?
                (own ? ': DISAGREE, plumbob\'s checker passes what the validator refuses' :
                       ': DISAGREE, the validator passes what plumbob\'s checker refuses') : ''));
        if (plumbob && verdict === 'FAIL' && !own) console.log(`     plumbob: ${ownSays}`);
        if (verdict === 'FAIL' || (verdict === 'ok  ' && warnings))
            for (const m of messages)
                console.log(`     ${m.severity === 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
    }
    console.log(`${files.length} files: ${passed + failed} validated, ${intentional} intentional test inputs refused by one or both, not counted`);
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
})();
