#!/usr/bin/env python3
"""plumbob's own mutation run (`make mutants`; tests/mutants.sh is the entry).

Each mutant in tests/mutants/*.txt is a one-line text substitution in real
code.  The tree is copied once to a scratch directory (git ls-files, no
build/), built once, and checked clean; then each mutant is applied on its
own, the scratch tree rebuilt incrementally, and the tests run in order,
stopping at the first that fails:

    units   build/plumbob-tests (with the corpus when there is one)
    gltf    build/gltf-tests       (tool code: the glTF exporter, importers, checker)
    jazz    build/smooth-jazz-tests (tool code: the Smooth Jazz compiler)
    tool    tests/tool-tests.sh

A mutant is KILLED (by the first stage that fails), SURVIVED (every stage
passed: a missing test), or INVALID (it does not build).  The list file
format is described in tests/mutants/README.md.  A list entry whose `from:`
text is not in its file exactly once stops the run before anything is built,
so a list cannot rot silently.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
LIST_DIR = os.path.join(ROOT, 'tests', 'mutants')
FIELDS = ('id', 'file', 'from', 'to', 'why', 'covered')
JOBS = '2'


class ListError(Exception):
    pass


def parse_list(path):
    """Blocks of `key: value` lines, separated by blank lines; `#` starts a comment line.
    The value is everything after the first ': ' (or nothing after a bare 'key:')."""
    area = os.path.splitext(os.path.basename(path))[0]
    out, cur, errors = [], None, []
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines + [''], 1):
        if line.startswith('#'):
            continue
        if line.strip() == '':
            if cur is not None:
                out.append(cur)
                cur = None
            continue
        key, sep, val = line.partition(':')
        if not sep or key not in FIELDS:
            errors.append('%s:%d: not a `key: value` line with a known key (%s)' % (path, n, ', '.join(FIELDS)))
            continue
        if val.startswith(' '):
            val = val[1:]
        if cur is None:
            cur = {'area': area, 'where': '%s:%d' % (os.path.relpath(path, ROOT), n)}
        if key in cur:
            errors.append('%s:%d: `%s:` given twice in one mutant' % (path, n, key))
        cur[key] = val
    return out, errors


def load(areas, ids):
    files = sorted(f for f in os.listdir(LIST_DIR) if f.endswith('.txt'))
    known_areas = [os.path.splitext(f)[0] for f in files]
    for a in areas:
        if a not in known_areas:
            raise ListError('no area %r (areas: %s)' % (a, ', '.join(known_areas)))
    mutants, errors, seen = [], [], {}
    for f in files:
        ms, errs = parse_list(os.path.join(LIST_DIR, f))
        errors += errs
        mutants += ms
    for m in mutants:
        for k in ('id', 'file', 'from', 'to', 'why'):
            if k not in m:
                errors.append('%s: mutant %s has no `%s:`' % (m['where'], m.get('id', '?'), k))
        if 'id' not in m or 'file' not in m or 'from' not in m or 'to' not in m:
            continue
        if m['id'] in seen:
            errors.append('%s: id %s already used at %s' % (m['where'], m['id'], seen[m['id']]))
        seen[m['id']] = m['where']
        if m['from'] == m['to']:
            errors.append('%s: %s: `from:` and `to:` are the same text' % (m['where'], m['id']))
        if m['from'] == '':
            errors.append('%s: %s: empty `from:`' % (m['where'], m['id']))
            continue
        p = os.path.join(ROOT, m['file'])
        if not os.path.isfile(p):
            errors.append('%s: %s: no file %s' % (m['where'], m['id'], m['file']))
            continue
        with open(p, encoding='utf-8') as fh:
            n = fh.read().count(m['from'])
        if n != 1:
            errors.append('%s: %s: `from:` text occurs %d times in %s (must be exactly once): %r'
                          % (m['where'], m['id'], n, m['file'], m['from']))
    if errors:
        raise ListError('the mutant list is stale or ambiguous:\n  ' + '\n  '.join(errors))
    if areas:
        mutants = [m for m in mutants if m['area'] in areas]
    if ids:
        missing = [i for i in ids if i not in seen]
        if missing:
            raise ListError('no mutant with id %s' % ', '.join(missing))
        mutants = [m for m in mutants if m['id'] in ids]
    return mutants


def run(cmd, cwd, timeout, log, env=None):
    """Runs cmd; returns (status, seconds): 'ok', 'fail' or 'timeout'."""
    t0 = time.time()
    with open(log, 'w') as lf:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=lf, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        try:
            st = 'ok' if p.wait(timeout=timeout) == 0 else 'fail'
        except subprocess.TimeoutExpired:
            # the whole process group: make's compilers, the tool tests' children
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
            st = 'timeout'
    return st, time.time() - t0


def tool_tests_failed(log):
    """tool-tests.sh ends with `N passed, N failed`; it may exit 0 with failures."""
    try:
        with open(log, errors='replace') as f:
            lines = [l for l in f.read().splitlines() if ' passed, ' in l and ' failed' in l]
    except OSError:
        return True
    if not lines:
        return True
    try:
        return int(lines[-1].split(' passed, ')[1].split()[0]) != 0
    except (IndexError, ValueError):
        return True


MAKE_TARGETS = ['all', 'tests', 'build/xml-check', 'build/json-check', 'build/gltf-tests',
                'build/smooth-jazz-tests']


def stages(corpus):
    units_env = dict(os.environ)
    if corpus:
        units_env['PLUMBOB_CORPUS'] = corpus
    c = [corpus] if corpus else []
    return [
        ('units', ['build/plumbob-tests'], units_env, None),
        ('gltf', ['build/gltf-tests'] + c, units_env, None),
        ('jazz', ['build/smooth-jazz-tests', 'tests/smooth-jazz'] + c, units_env, None),
        ('tool', ['bash', 'tests/tool-tests.sh', 'build'], units_env, tool_tests_failed),
    ]


def copy_tree(scratch):
    files = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard', '-z'], cwd=ROOT,
                           stdout=subprocess.PIPE, check=True).stdout.split(b'\0')
    if os.path.isdir(scratch):
        shutil.rmtree(scratch)
    os.makedirs(scratch)
    for f in files:
        f = f.decode()
        if not f or f.startswith('build/'):
            continue
        src = os.path.join(ROOT, f)
        if not os.path.isfile(src):
            continue  # deleted in the work tree, not yet in the index
        dst = os.path.join(scratch, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


def main():
    ap = argparse.ArgumentParser(description='plumbob mutation run (tests/mutants/*.txt)')
    ap.add_argument('-a', '--area', action='append', default=[], help='only this area (list file name without .txt); repeatable')
    ap.add_argument('-i', '--id', action='append', default=[], help='only this mutant id; repeatable')
    ap.add_argument('--list', action='store_true', help='check the list and print it; build nothing')
    ap.add_argument('--threshold', type=float, default=float(os.environ.get('MUTANTS_THRESHOLD', '95')),
                    help='fail below this kill percentage (default 95)')
    ap.add_argument('--timeout', type=int, default=int(os.environ.get('MUTANTS_TIMEOUT', '300')),
                    help='seconds per build or test stage of one mutant (default 300)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'mutants'), help='report and scratch directory')
    args = ap.parse_args()

    try:
        mutants = load(args.area, args.id)
    except ListError as e:
        print('mutants: %s' % e, file=sys.stderr)
        return 2
    if args.list:
        for m in mutants:
            print('%-28s %-9s %-34s %s' % (m['id'], m['area'], m['file'], m['why']))
        print('%d mutants, list ok' % len(mutants))
        return 0
    if not mutants:
        print('mutants: nothing selected', file=sys.stderr)
        return 2

    corpus = os.environ.get('PLUMBOB_CORPUS') or os.path.join(ROOT, '..', 'shared', 'corpus')
    corpus = os.path.abspath(corpus) if os.path.isdir(corpus) else None
    out = os.path.abspath(args.out)
    scratch = os.path.join(out, 'tree')
    logs = os.path.join(out, 'logs')
    t_start = time.time()
    described = subprocess.run(['git', 'describe', '--always', '--dirty'], cwd=ROOT, stdout=subprocess.PIPE,
                               universal_newlines=True).stdout.strip()  # the tree as copied
    started = time.strftime('%Y-%m-%d %H:%M', time.gmtime())
    print('mutants: copying the tree to %s' % scratch, flush=True)
    copy_tree(scratch)
    os.makedirs(logs, exist_ok=True)
    make = ['make', '-j' + JOBS, 'WERROR=', 'BUILD=build'] + MAKE_TARGETS
    st, secs = run(make, scratch, 1800, os.path.join(logs, 'baseline.build.log'))
    if st != 'ok':
        print('mutants: the unmutated tree does not build (%s); see %s' % (st, os.path.join(logs, 'baseline.build.log')))
        return 2
    print('mutants: built in %.0fs; corpus %s' % (secs, corpus or 'absent (corpus tests skip)'), flush=True)
    for name, cmd, env, failed in stages(corpus):
        log = os.path.join(logs, 'baseline.%s.log' % name)
        st, secs = run(cmd, scratch, args.timeout * 2, log, env)
        if st != 'ok' or (failed and failed(log)):
            print('mutants: the unmutated tree fails stage %s (%s); see %s' % (name, st, log))
            return 2
        print('mutants: baseline %s passes (%.0fs)' % (name, secs), flush=True)

    results = []
    for k, m in enumerate(mutants, 1):
        path = os.path.join(scratch, m['file'])
        with open(path, encoding='utf-8') as f:
            orig = f.read()
        if orig.count(m['from']) != 1:
            print('mutants: %s: `from:` text no longer unique in the scratch copy' % m['id'], file=sys.stderr)
            return 2
        t0 = time.time()
        res, stage = None, '-'
        try:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(orig.replace(m['from'], m['to'], 1))
            blog = os.path.join(logs, m['id'] + '.build.log')
            st, _ = run(make, scratch, args.timeout, blog)
            if st != 'ok':
                res, stage = 'invalid', 'build' if st == 'fail' else 'build-timeout'
            else:
                for name, cmd, env, failed in stages(corpus):
                    log = os.path.join(logs, '%s.%s.log' % (m['id'], name))
                    st, _ = run(cmd, scratch, args.timeout, log, env)
                    if st != 'ok' or (failed and failed(log)):
                        res, stage = 'killed', name + ('(timeout)' if st == 'timeout' else '')
                        break
                else:
                    res = 'survived'
        finally:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(orig)
        note = ''
        if m.get('covered'):
            note = 'covered by %s' % m['covered'] if res == 'survived' else \
                'killed: drop its covered: line' if res == 'killed' else ''
        results.append((m, res, stage, time.time() - t0, note))
        print('[%d/%d] %-8s %-9s %-30s %s%s' % (k, len(mutants), res, stage, m['id'], m['file'],
                                             ('  (' + note + ')') if note else ''), flush=True)

    killed = sum(1 for r in results if r[1] == 'killed')
    survived = sum(1 for r in results if r[1] == 'survived')
    invalid = sum(1 for r in results if r[1] == 'invalid')
    n = len(results)
    pct = 100.0 * killed / n
    elapsed = time.time() - t_start
    lines = ['plumbob mutation run, started %s UTC, tree %s' % (started, described),
             'areas: %s; corpus: %s; %.0f s' % (', '.join(sorted({m['area'] for m in mutants})),
                                                 'yes' if corpus else 'no', elapsed), '',
             '%-30s %-8s %-9s %-9s %5s  %s' % ('id', 'area', 'result', 'stage', 'secs', 'why'),
             '%-30s %-8s %-9s %-9s %5s  %s' % ('--', '----', '------', '-----', '----', '---')]
    for m, res, stage, secs, note in results:
        lines.append('%-30s %-8s %-9s %-9s %5.0f  %s%s' % (m['id'], m['area'], res, stage, secs, m['why'],
                                                       ('  [' + note + ']') if note else ''))
    lines.append('')
    surv = [r for r in results if r[1] == 'survived']
    if surv:
        lines.append('survivors (each is a missing test):')
        for m, res, stage, secs, note in surv:
            lines.append('  %s  %s: %s -> %s%s' % (m['id'], m['file'], m['from'].strip(), m['to'].strip(),
                                                   ('  [' + note + ']') if note else ''))
        lines.append('')
    if invalid:
        lines.append('invalid (does not build; fix or drop the entry): ' +
                     ', '.join(r[0]['id'] for r in results if r[1] == 'invalid'))
    summary = '%d killed, %d survived, %d invalid of %d (%.1f%%)' % (killed, survived, invalid, n, pct)
    lines.append(summary)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'report.txt'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print()
    print('\n'.join(lines[4:]))
    print('report: %s' % os.path.join(out, 'report.txt'))
    if pct < args.threshold:
        print('mutants: %.1f%% killed is below the threshold of %g%%' % (pct, args.threshold))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
