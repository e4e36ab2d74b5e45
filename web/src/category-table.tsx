// Long, short and net USD by wallet category, as the deep view and the smart money page show it.
import { categoryLabel } from './categories.js';
import * as f from './format.js';

export function CategoryTable(props: { labelledBy: string;
  rows: { category: string; long: number; short: number; net: number }[]; net?: number }) {
  return (
    <div class="table-wrap narrow"><table aria-labelledby={props.labelledBy} class="by-category">
      <thead><tr><th scope="col">Category</th><th scope="col" class="num">Long</th>
        <th scope="col" class="num">Short</th><th scope="col" class="num">Net</th></tr></thead>
      <tbody>{props.rows.map((r) => <tr data-category={r.category}>
        <th scope="row">{categoryLabel(r.category)}</th><td class="num">{f.usd(r.long)}</td>
        <td class="num">{f.usd(r.short)}</td>
        <td class={`num ${f.signClass(r.net)}`}>{f.usd(r.net)}</td></tr>)}</tbody>
      {props.net !== undefined && <tfoot><tr><th scope="row">All</th><td /><td />
        <td class={`num ${f.signClass(props.net)}`}>{f.usd(props.net)}</td></tr></tfoot>}
    </table></div>
  );
}
