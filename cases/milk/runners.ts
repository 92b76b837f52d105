import type { Random } from '../lib/random.ts';

/**
 * Test-runner output in the formats real tools print. The decisive summary line comes LAST, after a
 * long per-test listing — exactly what a head-only 500-character cap (ADR 0029's brick) cuts away.
 */
export interface RunResult {
  output: string;
  /** The summary line as printed (the evidence a receiver can cite). */
  summary: string;
  /** A phrase of the summary that occurs nowhere else (the evidence cue). */
  cue: string;
}

export interface Runner {
  command: string;
  run(
    r: Random,
    file: string,
    tests: string[],
    failing: { name: string; detail: string[] } | null,
  ): RunResult;
}

export const pytest: Runner = {
  command: 'python -m pytest -v',
  run(r, file, tests, failing) {
    const n = tests.length;
    const lines = tests.map(
      (t, i) =>
        `${file}::${t} ${failing?.name === t ? 'FAILED' : 'PASSED'}${' '.repeat(Math.max(1, 52 - t.length))}[${String(Math.round(((i + 1) / n) * 100)).padStart(3)}%]`,
    );
    const secs = (1.5 + r.float() * 2).toFixed(2);
    const head = [
      '============================= test session starts ==============================',
      'platform linux -- Python 3.12.4, pytest-8.3.2, pluggy-1.5.0 -- /repo/.venv/bin/python',
      'cachedir: .pytest_cache',
      'rootdir: /repo',
      'configfile: pyproject.toml',
      'plugins: cov-5.0.0',
      `collected ${n} items`,
      '',
    ];
    if (!failing) {
      const summary = `============================== ${n} passed in ${secs}s ==============================`;
      return { output: [...head, ...lines, '', summary].join('\n'), summary, cue: `${n} passed in ${secs}s` };
    }
    const summary = `========================= 1 failed, ${n - 1} passed in ${secs}s =========================`;
    const fail = [
      '',
      '=================================== FAILURES ===================================',
      `_${'_'.repeat(20)} ${failing.name} ${'_'.repeat(20)}`,
      '',
      ...failing.detail,
      '=========================== short test summary info ============================',
      `FAILED ${file}::${failing.name} - ${failing.detail[failing.detail.length - 1]!.replace(/^E\s+/, '')}`,
    ];
    return {
      output: [...head, ...lines, ...fail, summary].join('\n'),
      summary,
      cue: `1 failed, ${n - 1} passed in ${secs}s`,
    };
  },
};

export const vitest: Runner = {
  command: 'npx vitest run',
  run(r, file, tests, failing) {
    const n = tests.length;
    const lines = tests.map((t) => `   ${failing?.name === t ? '×' : '✓'} ${file} > ${t} ${r.int(1, 40)}ms`);
    const secs = (0.8 + r.float() * 2).toFixed(2);
    const head = [' RUN  v2.1.8 /repo', ''];
    const tail = failing
      ? [
          '',
          '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
          '',
          ` FAIL  ${file} > ${failing.name}`,
          ...failing.detail,
          '',
          ` Test Files  1 failed | ${r.int(4, 9)} passed`,
          `      Tests  1 failed | ${n - 1} passed (${n})`,
        ]
      : ['', ` Test Files  ${r.int(5, 10)} passed`, `      Tests  ${n} passed (${n})`];
    const summary = tail[tail.length - 1]!.trim();
    const out = [
      ...head,
      ...lines,
      ...tail,
      `   Start at  10:${r.int(10, 59)}:${r.int(10, 59)}`,
      `   Duration  ${secs}s (transform 210ms, setup 0ms, collect 640ms, tests ${r.int(100, 900)}ms)`,
    ];
    return {
      output: out.join('\n'),
      summary,
      cue: failing ? `1 failed | ${n - 1} passed (${n})` : `${n} passed (${n})`,
    };
  },
};

export const gotest: Runner = {
  command: 'gotestsum --format standard-verbose -- ./...',
  run(r, file, tests, failing) {
    const n = tests.length;
    const pkg = file;
    const lines = tests.flatMap((t) => [
      `=== RUN   ${t}`,
      failing?.name === t ? `--- FAIL: ${t} (0.00s)` : `--- PASS: ${t} (0.0${r.int(0, 4)}s)`,
    ]);
    const secs = (0.3 + r.float()).toFixed(3);
    if (!failing) {
      const summary = `DONE ${n} tests in ${secs}s`;
      return {
        output: [...lines, 'PASS', `ok  \t${pkg}\t${secs}s`, '', summary].join('\n'),
        summary,
        cue: summary,
      };
    }
    const summary = `DONE ${n} tests, 1 failure in ${secs}s`;
    const idx = lines.findIndex((l) => l === `--- FAIL: ${failing.name} (0.00s)`);
    lines.splice(idx, 0, ...failing.detail.map((d) => `    ${d}`));
    return {
      output: [
        ...lines,
        'FAIL',
        `FAIL\t${pkg}\t${secs}s`,
        '',
        `=== Failed`,
        `=== FAIL: ${pkg} ${failing.name} (0.00s)`,
        '',
        summary,
      ].join('\n'),
      summary,
      cue: summary,
    };
  },
};

export const cargo: Runner = {
  command: 'cargo test',
  run(r, file, tests, failing) {
    const n = tests.length;
    const secs = (0.01 + r.float() / 10).toFixed(2);
    const head = [
      '   Compiling csvmerge v0.4.2 (/repo)',
      `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${(2 + r.float() * 5).toFixed(2)}s`,
      '     Running unittests src/lib.rs (target/debug/deps/csvmerge-3f9c2a7d1e8b4c60)',
      '',
      `running ${n} tests`,
    ];
    const lines = tests.map((t) => `test ${file}::${t} ... ${failing?.name === t ? 'FAILED' : 'ok'}`);
    if (!failing) {
      const summary = `test result: ok. ${n} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in ${secs}s`;
      return {
        output: [...head, ...lines, '', summary, ''].join('\n'),
        summary,
        cue: `${n} passed; 0 failed`,
      };
    }
    const summary = `test result: FAILED. ${n - 1} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in ${secs}s`;
    const fail = [
      '',
      'failures:',
      '',
      `---- ${file}::${failing.name} stdout ----`,
      ...failing.detail,
      '',
      'failures:',
      `    ${file}::${failing.name}`,
      '',
    ];
    return {
      output: [...head, ...lines, ...fail, summary, '', 'error: test failed, to rerun pass `--lib`'].join(
        '\n',
      ),
      summary,
      cue: `${n - 1} passed; 1 failed`,
    };
  },
};
