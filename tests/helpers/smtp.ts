import { SMTPServer } from 'smtp-server';

export interface CapturedEmail {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  raw: string;
}

/** A real SMTP server on loopback that keeps what it receives. */
export async function startSmtpCapture() {
  const messages: CapturedEmail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (raw += c));
      stream.on('end', () => {
        messages.push(
          parse(
            raw,
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((r) => r.address).join(','),
          ),
        );
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;

  async function waitFor(pred: (m: CapturedEmail) => boolean = () => true, timeoutMs = 10_000): Promise<CapturedEmail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error('no matching email arrived');
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  return {
    port,
    messages,
    waitFor,
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_TLS: 'false',
      EMAILS_FROM_EMAIL: 'studio@example.com',
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Just enough MIME for nodemailer's output: headers, and the text and html parts (quoted-printable or plain). */
function parse(raw: string, from: string, to: string): CapturedEmail {
  const header = (name: string) => {
    const m = raw.match(new RegExp(`^${name}: ((?:.*)(?:\\r?\\n[ \\t].*)*)`, 'im'));
    return m ? decodeWords(m[1].replace(/\r?\n[ \t]/g, ' ')) : '';
  };
  const part = (type: string) => {
    const re = new RegExp(`Content-Type: ${type}[^]*?\\r?\\n\\r?\\n([^]*?)(?:\\r?\\n--|$)`, 'i');
    const m = raw.match(re);
    if (!m) return '';
    const headers = raw.slice(raw.indexOf(m[0]), raw.indexOf(m[0]) + m[0].length - m[1].length);
    return /quoted-printable/i.test(headers)
      ? decodeQP(m[1])
      : /base64/i.test(headers)
        ? Buffer.from(m[1], 'base64').toString('utf8')
        : m[1];
  };
  return { from, to, subject: header('Subject'), html: part('text/html'), text: part('text/plain'), raw };
}

const decodeQP = (s: string) =>
  Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  ).toString('utf8');

const decodeWords = (s: string) =>
  s.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc, text) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQP(text.replace(/_/g, ' ')),
  );
