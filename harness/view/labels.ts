import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { HAND_LABELS_FILE, type HandLabel } from '../../reports/hand-labels.ts';

// Reading, agreement and the record types live with the reports (reports/hand-labels.ts): every report
// shows the agreement. The viewer is the one writer.
export * from '../../reports/hand-labels.ts';

export function appendHandLabel(runDir: string, label: HandLabel): void {
  appendFileSync(join(runDir, HAND_LABELS_FILE), `${JSON.stringify(label)}\n`);
}
