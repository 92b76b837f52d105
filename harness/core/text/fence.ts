import { createHash } from 'node:crypto';

/**
 * Fencing untrusted text (a receiver's answer, a tool result) inside a judge's prompt. The fence id is
 * a hash of the content, so the content cannot contain its own closing marker; any forged marker
 * inside the content is neutralised as well.
 */
export interface Fenced {
  open: string;
  close: string;
  text: string;
}

/**
 * Quotes untrusted text (a tool result) between markers unique to its content, so a receiver reads it as data
 * and the text cannot close the fence itself.
 */
export function fence(content: string): Fenced {
  const id = createHash('sha256').update(content).digest('hex').slice(0, 16);
  const open = `<<<UNTRUSTED-${id}>>>`;
  const close = `<<<END-UNTRUSTED-${id}>>>`;
  return { open, close, text: `${open}\n${neutraliseMarkers(content)}\n${close}` };
}

/** Defuses anything in untrusted text that looks like a fence marker (also for text placed outside a fence). */
export function neutraliseMarkers(text: string): string {
  return text.replace(/<<<\s*(END-)?UNTRUSTED-/gi, '<<<(neutralised marker) ');
}
