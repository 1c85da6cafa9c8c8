/**
 * My Account's "Download my data" (docs/decisions/0084-download-my-data.md): a plain link to the
 * JSON file, so it downloads with or without JavaScript; the session cookie goes with it.
 */
export function DownloadMyData() {
  return (
    <section className="card profile-section my-data" aria-labelledby="my-data-heading">
      <h2 id="my-data-heading">Your data</h2>
      <p id="my-data-explained">
        A copy of everything Chalkboard Deals keeps about you, as one JSON file (up to 5 downloads
        an hour).
      </p>
      <a
        href="/api/my_data"
        download
        className="btn btn-outline"
        aria-describedby="my-data-explained"
      >
        Download my data
      </a>
    </section>
  );
}
