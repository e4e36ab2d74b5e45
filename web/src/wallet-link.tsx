// A wallet as the tables show it: its label, else its shortened address, linked to its page.
import * as f from './format.js';
import { Link } from './ui.js';

export function WalletLink(props: { address: string; label?: string | null }) {
  return <Link href={`/wallets/${props.address}`}>{props.label ??
    <code>{f.shortAddress(props.address)}</code>}</Link>;
}
