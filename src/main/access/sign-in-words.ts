/**
 * The words of the sign-in pages and refusals, in one place (the owner's admin link, a Reader's QR code), so the
 * pages that show them and the tests that read them agree (docs/adr/0127-a-sign-in-link-while-the-app-runs.md).
 */

/** How the owner gets a new admin sign-in link while the app runs: never a restart. */
export const NEW_ADMIN_LINK =
  'Get a new sign-in link without restarting: press Enter in the terminal where the app runs, or run “npm run admin-link” in another terminal (add “-- --data DIR” if you started the app with --data DIR).'

/** A used or expired admin sign-in link: the page's heading and its lines. */
export const SPENT_ADMIN_LINK = {
  title: 'This sign-in link was already used or has expired',
  lines: [
    'A sign-in link works once, within 10 minutes of being made. Nothing was changed.',
    NEW_ADMIN_LINK,
    'Or open the admin URL with its token (the line that begins “manga-bookmark: admin:”).',
  ],
}

/** A used or expired Reader's sign-in link (the QR code), as the Readers' page shows it on the sign-in form. */
export const SPENT_READER_LINK =
  'this sign-in link was already used or has expired — a link works once, within 10 minutes. Ask the owner for a new device sign-in (Readers → Add a device shows a new QR code; your other devices stay signed in), or type your token.'
