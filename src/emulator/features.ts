// Placeholder until the feature helper's billing/delivery/webhook/SFTP modules land; they replace this file.
import type { Emu } from './types.js';

export function registerFeatures(_emu: Emu): void | (() => void) {
  return undefined;
}
