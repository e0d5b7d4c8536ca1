import type { EmuCore } from '../emu.js';
import { json } from '../util.js';
import { usedSlots } from '../model/slots.js';
import * as store from '../model/store.js';

export function registerUser(emu: EmuCore): void {
  emu.route('GET', '/v1/me', () => json(200, store.user(emu)));
  emu.route('GET', '/v1/user/balance', () => {
    // Slots in use are derived from the squids at each read, not stored by a read.
    return json(200, { ...store.balance(emu), used_slots: usedSlots(emu) });
  });
}
