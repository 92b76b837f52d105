import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { shared, sharedMissing, tempFiles } from './shared-transcripts.ts';

describe.skipIf(sharedMissing)('import --all (issue 19)', () => {
  it('writes one transcript per instance/sample/element, named by instance id; --stats one line each', () => {
    const dir = tempFiles({});
    copyFileSync(shared('openhands-multiswe-ponyc.jsonl'), join(dir, 'output.jsonl'));
    copyFileSync(shared('inspect-metr-oxdna-opus41-6epochs.eval'), join(dir, 'log.eval'));
    copyFileSync(shared('sweagent-text-pydicom-1458.traj'), join(dir, 'pydicom__pydicom-1458.traj'));
    // A τ-bench style array of three trajectories.
    const one = JSON.parse(readFileSync(shared('taubench-gpt4o-airline-task9.json'), 'utf8'));
    writeFileSync(join(dir, 'tau.json'), JSON.stringify([0, 1, 2].map((trial) => ({ ...one, trial }))));
    const out = join(dir, 'out');
    const r = runCli(['import', '--all', dir, '--out', out, '--stats']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { session: string; messages: number });
    expect(lines.map((l) => l.session).sort()).toEqual(
      [
        'ponylang__ponyc-4595',
        'ponylang__ponyc-4593',
        'ponylang__ponyc-4588',
        ...[1, 2, 3, 4, 5, 6].map((n) => `default_epoch_${n}`),
        'pydicom__pydicom-1458',
        'task-9-trial-0',
        'task-9-trial-1',
        'task-9-trial-2',
      ].sort(),
    );
    expect(lines.every((l) => l.messages > 0)).toBe(true);
    expect(readdirSync(out).sort()).toEqual(lines.map((l) => `${l.session}.json`).sort());
    const pony = JSON.parse(readFileSync(join(out, 'ponylang__ponyc-4588.json'), 'utf8')) as {
      messages: unknown[];
    };
    expect(pony.messages).toHaveLength(99);
  });

  it("a SWE-agent trajectories folder: <run>/<instance>/<instance>.traj, the run's other files passed over", () => {
    const run = 'trajectories/user/default__gpt-4o__t-0.00';
    const instances = {
      'pydicom__pydicom-1458': 'sweagent-text-pydicom-1458.traj',
      'marshmallow-code__marshmallow-1867': 'sweagent-fc-marshmallow-1867.traj',
    };
    const files: Record<string, string> = { [`${run}/args.yaml`]: 'agent: {}\n' };
    for (const id of Object.keys(instances)) {
      // What SWE-agent writes beside each trajectory: logs, the patch, the prediction, the config.
      files[`${run}/${id}/${id}.info.log`] = 'INFO start\n';
      files[`${run}/${id}/${id}.patch`] = 'diff --git a/x b/x\n';
      files[`${run}/${id}/${id}.pred`] = JSON.stringify({ instance_id: id, model_patch: '' });
      files[`${run}/${id}/${id}.config.yaml`] = 'agent: {}\n';
    }
    const dir = tempFiles(files);
    for (const [id, source] of Object.entries(instances))
      copyFileSync(shared(source), join(dir, run, id, `${id}.traj`));
    const out = join(dir, 'out');
    const r = runCli(['import', '--all', join(dir, 'trajectories'), '--out', out, '--stats']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { session: string; format: string; toolCalls: number });
    expect(lines.map((l) => [l.session, l.format, l.toolCalls]).sort()).toEqual([
      ['marshmallow-code__marshmallow-1867', 'swe-agent', 13],
      ['pydicom__pydicom-1458', 'swe-agent', 12],
    ]);
    expect(readdirSync(out).sort()).toEqual([
      'marshmallow-code__marshmallow-1867.json',
      'pydicom__pydicom-1458.json',
    ]);
  });

  it('a session that fails is one stderr line and exit 2; the others are still written', () => {
    const dir = tempFiles({ 'bad.json': JSON.stringify({ hello: 'world' }) });
    copyFileSync(shared('sweagent-fc-marshmallow-1867.traj'), join(dir, 'good.traj'));
    const out = join(dir, 'out');
    const r = runCli(['import', '--all', dir, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.json:1: unrecognised transcript format/);
    expect(readdirSync(out)).toEqual(['good.json']);
  });
});
