// The generic survival-mark reader lives with the reports (they show hand-label agreement too).
export * from '../../reports/survival-marks.ts';
