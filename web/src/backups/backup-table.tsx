import { encryptedText, madeByText, sizeText, type Backup } from './text'
import { when } from '../lib/dates'

function Verified({ backup }: { backup: Backup }) {
  // The server's reason names the file, which its row already shows.
  if (backup.verify_error) return <span className="refused">Refused: {backup.verify_error.replace(`${backup.file}: `, '')}</span>
  if (!backup.verified_at) return <span>Never verified</span>
  return <span>Verified <time dateTime={backup.verified_at}>{when(backup.verified_at)}</time></span>
}

/**
 * The files of BACKUP_DIR, newest first. Below 40rem each row is a block whose cells carry their
 * column's name (`data-label`, shown by style.css), so a phone reads it without scrolling sideways.
 */
export function BackupTable({ items, verify, verifying }: { items: readonly Backup[]; verify: (file: string) => void; verifying: string | null }) {
  return (
    <table className="backups stack">
      <caption>{items.length === 1 ? '1 backup, newest first' : `${items.length} backups, newest first`}</caption>
      <thead>
        <tr>
          <th scope="col">Made</th><th scope="col">Size</th><th scope="col">Documents</th><th scope="col">Encryption</th>
          <th scope="col">Made by</th><th scope="col">Last verified</th><th scope="col">Verify</th>
        </tr>
      </thead>
      <tbody>
        {items.map((b) => (
          <tr key={b.file}>
            <th scope="row" data-label="Made">
              <time dateTime={b.created_at}>{when(b.created_at)}</time>
              <span className="file">{b.file}</span>
            </th>
            <td data-label="Size">{sizeText(b.bytes)}</td>
            <td data-label="Documents">{b.documents ?? 'Not read yet'}</td>
            <td data-label="Encryption">{encryptedText(b.encrypted)}</td>
            <td data-label="Made by">{madeByText(b.made_by)}</td>
            <td data-label="Last verified"><Verified backup={b} /></td>
            <td>
              <button type="button" disabled={verifying !== null} onClick={() => verify(b.file)}>
                {verifying === b.file ? 'Verifying…' : 'Verify'}<span className="visually-hidden"> {b.file}</span>
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
