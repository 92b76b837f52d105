import type { Project } from './project.ts';
import { gotest } from './runners.ts';

const goHeader = `// Package retry runs an operation with exponential backoff and jitter.
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Policy configures retries. The zero value retries 3 times starting at 100ms.
type Policy struct {
	Attempts int
	Base     time.Duration
	Max      time.Duration
	Jitter   float64 // 0..1, share of the delay that is randomised
}

// ErrExhausted wraps the last error once every attempt failed.
var ErrExhausted = errors.New("retry: attempts exhausted")
`;

export const retry: Project = {
  id: 'retry',
  repo: 'acme/retry',
  language: 'Go',
  runner: gotest,
  srcPath: 'retry.go',
  testPath: 'github.com/acme/retry',
  integration: {
    what: 'the chaos tests',
    why: 'they need the fault-injection proxy from the infra repo',
    claim: 'the fix holds under injected network faults',
    cues: ['holds under injected network faults'],
  },
  header: goHeader,
  tests: [
    'TestDefaults',
    'TestSucceedsFirstTry',
    'TestRetriesUntilSuccess',
    'TestExhausted',
    'TestExhaustedWrapsLastError',
    'TestPermanentErrorStops',
    'TestBackoff/attempt_1',
    'TestBackoff/attempt_2',
    'TestBackoff/attempt_3',
    'TestBackoff/attempt_5',
    'TestBackoff/attempt_10',
    'TestBackoffCappedAtMax',
    'TestJitterRange',
    'TestJitterZero',
    'TestJitterOne',
    'TestContextCanceledBeforeStart',
    'TestContextDeadline',
    'TestOnRetryHook',
    'TestOnRetryHookCount',
    'TestAttemptsZeroMeansDefault',
    'TestNegativeAttemptsRejected',
    'TestPolicyString',
    'TestDoWithValue',
    'TestDoWithValueError',
    'TestConcurrentDo',
    'TestTimerStopped',
    'TestClockInjection',
    'TestExampleDo',
    'TestExampleDoWithValue',
    'TestFuzzPolicy/seed_1',
    'TestFuzzPolicy/seed_2',
    'TestFuzzPolicy/seed_3',
  ],
  bugs: [
    {
      id: 'overflow',
      title: 'backoff turns negative after ~40 attempts',
      issue:
        'With Attempts: 60 and Base: 100ms the delay becomes negative around attempt 40 and the loop spins without sleeping, hammering the upstream.',
      fn: 'Backoff',
      buggy: `// Backoff returns the delay before attempt n (1-based), capped at p.Max.\nfunc (p Policy) Backoff(n int) time.Duration {\n\td := p.Base * time.Duration(1<<uint(n-1))\n\tif p.Max > 0 && d > p.Max {\n\t\td = p.Max\n\t}\n\treturn d\n}\n`,
      fixed: `// Backoff returns the delay before attempt n (1-based), capped at p.Max.\nfunc (p Policy) Backoff(n int) time.Duration {\n\td := p.Base\n\tfor i := 1; i < n; i++ {\n\t\tif p.Max > 0 && d >= p.Max/2 {\n\t\t\treturn p.Max\n\t\t}\n\t\td *= 2\n\t}\n\tif p.Max > 0 && d > p.Max {\n\t\td = p.Max\n\t}\n\treturn d\n}\n`,
      failingTest: 'TestBackoffNoOverflow',
      failure: ['retry_test.go:97: Backoff(45) = -5.764607523s, want 30s (the cap)'],
      cause: {
        statement:
          'Backoff computed Base * 2^(n-1) with a shift and only then applied the cap, so the product overflowed int64 and went negative',
        cues: ['backoff', 'overflowed int64'],
      },
      fix: {
        statement: 'Backoff now doubles step by step and returns the cap before the doubling can overflow',
        cues: ['doubles step by step'],
      },
      regression: {
        name: 'TestBackoffNoOverflowWithoutMax',
        code: 'func TestBackoffNoOverflowWithoutMax(t *testing.T) {\n\tp := Policy{Base: time.Second}\n\tif d := p.Backoff(70); d <= 0 {\n\t\tt.Fatalf("Backoff(70) = %v, want > 0", d)\n\t}\n}\n',
      },
      assumption: {
        statement:
          'Assuming callers set Max whenever Attempts is large; without Max the delay still grows to hours.',
        claim: 'callers set Max whenever Attempts is large',
        cues: ['callers set max whenever attempts is large'],
      },
    },
    {
      id: 'jitter',
      title: 'jitter can produce a negative sleep',
      issue:
        'With Jitter: 1.0 some retries fire immediately; the jittered delay can go below zero and time.Sleep returns at once.',
      fn: 'jittered',
      buggy: `// jittered spreads d by ±p.Jitter/2.\nfunc (p Policy) jittered(d time.Duration) time.Duration {\n\tif p.Jitter <= 0 {\n\t\treturn d\n\t}\n\tspread := float64(d) * p.Jitter\n\treturn d + time.Duration((rand.Float64()-0.5)*spread*2)\n}\n`,
      fixed: `// jittered spreads d by ±p.Jitter/2, never below zero.\nfunc (p Policy) jittered(d time.Duration) time.Duration {\n\tif p.Jitter <= 0 {\n\t\treturn d\n\t}\n\tspread := float64(d) * p.Jitter\n\tj := d + time.Duration((rand.Float64()-0.5)*spread)\n\tif j < 0 {\n\t\treturn 0\n\t}\n\treturn j\n}\n`,
      failingTest: 'TestJitterNeverNegative',
      failure: ['retry_test.go:141: jittered(100ms) with Jitter=1 gave -37.2ms on draw 212'],
      cause: {
        statement:
          'jittered multiplied the spread by two, so with Jitter 1.0 the delay ranged from -d to 2d instead of ±d/2',
        cues: ['jittered', 'multiplied the spread by two'],
      },
      fix: {
        statement: 'jittered now spreads by ±Jitter/2 and clamps the result at zero',
        cues: ['clamps the result at zero'],
      },
      regression: {
        name: 'TestJitterBoundsFuzz',
        code: 'func TestJitterBoundsFuzz(t *testing.T) {\n\tp := Policy{Jitter: 1}\n\tfor i := 0; i < 10000; i++ {\n\t\tif d := p.jittered(100 * time.Millisecond); d < 50*time.Millisecond || d > 150*time.Millisecond {\n\t\t\tt.Fatalf("out of bounds: %v", d)\n\t\t}\n\t}\n}\n',
      },
      assumption: {
        statement:
          'Assuming the documented ±Jitter/2 is the intended contract, not the ±Jitter the old code effectively gave.',
        claim: 'the documented ±Jitter/2 is the intended contract',
        cues: ['documented ±jitter/2 is the intended contract'],
      },
    },
    {
      id: 'context',
      title: 'Do keeps sleeping after the context is cancelled',
      issue:
        'Cancelling the request context does not stop retries: Do sleeps the full backoff before noticing.',
      fn: 'Do',
      buggy: `// Do runs op until it succeeds, returns a permanent error, or attempts run out.\nfunc Do(ctx context.Context, p Policy, op func(context.Context) error) error {\n\tvar err error\n\tfor n := 1; n <= p.attempts(); n++ {\n\t\tif err = op(ctx); err == nil || IsPermanent(err) {\n\t\t\treturn err\n\t\t}\n\t\ttime.Sleep(p.jittered(p.Backoff(n)))\n\t}\n\treturn errors.Join(ErrExhausted, err)\n}\n`,
      fixed: `// Do runs op until it succeeds, returns a permanent error, attempts run out, or ctx is done.\nfunc Do(ctx context.Context, p Policy, op func(context.Context) error) error {\n\tvar err error\n\tfor n := 1; n <= p.attempts(); n++ {\n\t\tif err = op(ctx); err == nil || IsPermanent(err) {\n\t\t\treturn err\n\t\t}\n\t\tt := time.NewTimer(p.jittered(p.Backoff(n)))\n\t\tselect {\n\t\tcase <-ctx.Done():\n\t\t\tt.Stop()\n\t\t\treturn errors.Join(ctx.Err(), err)\n\t\tcase <-t.C:\n\t\t}\n\t}\n\treturn errors.Join(ErrExhausted, err)\n}\n`,
      failingTest: 'TestContextCanceledDuringBackoff',
      failure: ['retry_test.go:188: Do returned after 2.001s, want < 150ms after cancel'],
      cause: {
        statement:
          'Do slept with time.Sleep between attempts, which ignores the context, so cancellation was only seen after the full backoff',
        cues: ['time.sleep between attempts', 'ignores the context'],
      },
      fix: {
        statement:
          'Do now waits on a timer and ctx.Done() in a select and returns ctx.Err() joined with the last error',
        cues: ['select', 'ctx.done()'],
      },
      regression: {
        name: 'TestContextCanceledStopsTimer',
        code: 'func TestContextCanceledStopsTimer(t *testing.T) {\n\tctx, cancel := context.WithCancel(context.Background())\n\tcancel()\n\tif err := Do(ctx, Policy{Attempts: 5, Base: time.Hour}, failing); !errors.Is(err, context.Canceled) {\n\t\tt.Fatal(err)\n\t}\n}\n',
      },
      assumption: {
        statement: 'Assuming op itself honours ctx; Do cannot interrupt an op that ignores it.',
        claim: 'op itself honours ctx',
        cues: ['op itself honours ctx'],
      },
    },
  ],
};
