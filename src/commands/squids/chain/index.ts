// `sq squids chain`: the verb that shows a chain, with `set` and `delete` under it.
import show from './show.js';
import set from './set.js';
import del from './delete.js';

export default { ...show, subcommands: [set, del] };
