import type { Runner } from './runners.ts';

/** A small code base the primary works on, and the bugs a session can be about. */
export interface Bug {
  id: string;
  title: string;
  issue: string;
  fn: string;
  buggy: string;
  fixed: string;
  failingTest: string;
  failure: string[];
  cause: { statement: string; cues: string[] };
  fix: { statement: string; cues: string[] };
  regression: { name: string; code: string };
  assumption: { statement: string; claim: string; cues: string[] };
}

export interface Project {
  id: string;
  repo: string;
  language: string;
  runner: Runner;
  srcPath: string;
  /** The test file, or the package the runner reports. */
  testPath: string;
  /** The slow tests the primary does not run, and what that leaves unverified. */
  integration: { what: string; why: string; claim: string; cues: string[] };
  header: string;
  tests: string[];
  bugs: Bug[];
}
