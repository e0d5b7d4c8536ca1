import type { EmuCore } from '../emu.js';
import { json } from '../util.js';
import { usedSlots } from '../model/slots.js';

export function registerUser(emu: EmuCore): void {
  emu.route('GET', '/v1/me', () => json(200, emu.state.user));
  emu.route('GET', '/v1/user/balance', () => {
    emu.state.balance.used_slots = usedSlots(emu);
    return json(200, emu.state.balance);
  });
}
