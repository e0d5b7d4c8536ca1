import { defineVerb } from '../../cli/command.js';
import { maskKey } from '../../lib/secrets.js';

export default defineVerb({
  name: 'list',
  aliases: ['ls'],
  summary: 'List stored profiles (keys masked to their last 4 characters)',
  examples: ['sq profiles list', 'sq profiles list --json'],
  async run(ctx) {
    const store = await ctx.config();
    const rows = store.names().map((name) => {
      const p = store.get(name) ?? {};
      return {
        name,
        active: name === store.active,
        base_url: p.base_url ?? null,
        key: p.token ? maskKey(p.token) : null,
        user: p.user ?? null,
      };
    });
    await ctx.out.list(rows, {
      maskSecrets: false,
      empty: 'No profiles. Store one: sq auth login (or set SQ_TOKEN)',
      columns: [
        { key: 'name' },
        { key: 'active', format: (v) => (v ? '*' : '') },
        { key: 'base_url' },
        { key: 'key' },
        { key: 'user' },
      ],
    });
  },
});
