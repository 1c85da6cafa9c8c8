/**
 * The console's "Download a backup" (docs/decisions/0096-backups.md): a plain link to
 * `GET /api/admin/backup`, which answers the whole site (database and media) as one archive for
 * `npm run restore`. It works without JavaScript; the session cookie goes with it.
 */
export function DownloadBackup() {
  return (
    <section className="console-section" aria-labelledby="backup-title">
      <h2 id="backup-title">Backup</h2>
      <p id="backup-explained">
        The whole site, its database and its uploaded images, as one archive to keep somewhere safe.
        Restore it into an empty site with <code>npm run restore</code>.
      </p>
      <a
        href="/api/admin/backup"
        download
        className="btn btn-outline"
        aria-describedby="backup-explained"
      >
        Download a backup
      </a>
    </section>
  );
}
