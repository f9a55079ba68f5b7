import { formatDateTime, formatMoney, formatShortDateTime, pluralIn, type Instant } from '../../format';
import { LOCALES } from '../../language';
import { escapeHtml as e, fullName } from '../html';
import type { BotTexts } from '../ru/bot';
import type { ErasureMoneyText } from '../ru/bot/replies';
import { receipts } from './bot-receipts';

/* The customer's texts in Serbian (Latin script); staff texts stay Russian (the studio's language). */

const locale = LOCALES.sr;
const q = (title: string) => `„${e(title)}“`;
const rsd = (amount: number) => formatMoney(amount, 'sr');
const hours = (n: number) => `${n} ${pluralIn(locale, n, { one: 'sat', few: 'sata', other: 'sati' })}`;
const days = (n: number) => `${n} ${pluralIn(locale, n, { one: 'dan', few: 'dana', other: 'dana' })}`;
const people = (n: number) => `${n} ${pluralIn(locale, n, { one: 'osoba', few: 'osobe', other: 'osoba' })}`;

const common = {
  dateTime: (when: Instant, timeZone: string) => formatDateTime(when, timeZone, locale),
  shortDateTime: (when: Instant, timeZone: string) => formatShortDateTime(when, timeZone, locale),
  state: { ACTIVE: '✅ Aktivna', QUEUED: '⏳ Na listi čekanja', CANCELLED: '❌ Otkazana' },
  moreLines: (n: number) =>
    `… i još ${n} ${pluralIn(locale, n, { one: 'red', few: 'reda', other: 'redova' })}: ceo spisak je u rasporedu.`,
  error: 'Nešto nije u redu. Pokušajte ponovo malo kasnije.',
};

const queueNote = (position: number | null) =>
  `Vaše mesto na listi čekanja: ${position ?? '—'}. Javićemo vam čim se mesto oslobodi.`;

const customer: BotTexts['customer'] = {
  schedule: {
    date: (date: string) => `📅 ${date}`,
    address: (title: string, description: string | null) => `📍 ${e(title)}${description ? `, ${e(description)}` : ''}`,
    mapLink: (url: string) => `🗺 <a href="${e(url)}">Otvori na mapi</a>`,
    mapText: (text: string) => `🗺 ${e(text)}`,
  },
  people: (n: number) => `👥 Broj osoba: ${n}`,
  queueNote,
  seeYou: 'Vidimo se!',
  booked: (workshop: string) => `✅ Prijavljeni ste na radionicu ${q(workshop)}!`,
  queued: (workshop: string) =>
    `⏳ Na radionici ${q(workshop)} trenutno nema slobodnih mesta, pa ste na listi čekanja.`,
  promoted: (workshop: string) => `🎉 Oslobodilo se mesto! Prijavljeni ste na radionicu ${q(workshop)}.`,
  cancelled: (workshop: string) => `❌ Vaša prijava na radionicu ${q(workshop)} je otkazana.`,
  cancelReason: (reason: string) => `Razlog: ${e(reason)}`,
  restoreHint: 'Predomislili ste se? Prijavu možete vratiti na njenoj stranici.',
  restored: (workshop: string) => `✅ Vaša prijava na radionicu ${q(workshop)} je vraćena.`,
  restoredQueued: (workshop: string) =>
    `↩️ Vaša prijava na radionicu ${q(workshop)} je vraćena, ali trenutno nema slobodnih mesta, pa ste na listi čekanja.`,
  peopleChanged: (workshop: string, before: number, after: number) =>
    `👥 Broj osoba u vašoj prijavi na radionicu ${q(workshop)} je promenjen: bilo je ${before}, sada je ${after}.`,
  peopleMovedToQueue: (position: number | null) =>
    `Nema dovoljno slobodnih mesta, pa je prijava premeštena na listu čekanja. ${queueNote(position)}`,
  seatsYours: 'Mesta su vaša.',
  scheduleChanged: (workshop: string, changed: { date: boolean; address: boolean }) => {
    const what =
      changed.date && changed.address ? 'novi datum i adresu' : changed.address ? 'novu adresu' : 'novi datum';
    return `✏️ Radionica ${q(workshop)} ima ${what}. Aktuelni podaci:`;
  },
  stillQueued: (position: number | null) => `Na listi čekanja ste. ${queueNote(position)}`,
  changeHint: 'Ako vam novo vreme ili mesto ne odgovara, prijavu možete otkazati na njenoj stranici.',
  scheduleDeleted: (workshop: string, date: string) =>
    `😔 Radionica ${q(workshop)} ${date} je otkazana, a s njom i vaša prijava. Izvinjavamo se!`,
  pickAnother: 'Drugu radionicu možete izabrati u aplikaciji.',
  sessionCancelled: (workshop: string, date: string) =>
    `😔 Radionica ${q(workshop)} ${date} je otkazana, a s njom i vaša prijava. Izvinjavamo se!`,
  otherDatesHint: 'Drugi datum ove radionice možete izabrati u aplikaciji.',
  minPeopleReason: 'Razlog: nije se prijavio minimalan broj učesnika.',
  manualReminder: (workshop: string) => `🔔 Podsećamo vas na radionicu ${q(workshop)}!`,
  waitingForYou: 'Čekamo vas!',
  reminder: (workshop: string, hoursBefore: number) => {
    const when =
      hoursBefore >= 24 && hoursBefore % 24 === 0
        ? hoursBefore === 24
          ? 'sutra'
          : `za ${days(hoursBefore / 24)}`
        : `za ${hours(hoursBefore)}`;
    return `🔔 Podsetnik: ${when} je radionica ${q(workshop)}!`;
  },
  reminderAsk: 'Da li dolazite?',
  thanks: (workshop: string) => `🙏 Hvala što ste bili na radionici ${q(workshop)}!`,
  rateAsk: 'Kako je bilo? Ocenite, molimo, od 1 do 5:',
  newDate: (workshop: string) => `🗓 Novi datum radionice ${q(workshop)}!`,
  newDateHint: 'Tražili ste da vam javimo: prijavite se dok ima mesta.',
  givenAway: (workshop: string, receiver: string) =>
    `🎁 Predali ste svoje mesto na radionici ${q(workshop)}: prijava je sada na ime ${e(receiver)}.`,
  received: (giver: string, workshop: string) => `🎁 ${e(giver)} vam predaje mesto na radionici ${q(workshop)}!`,
  receivedQueued: (position: number | null) => `Prijava je za sada na listi čekanja. ${queueNote(position)}`,
  buttons: {
    myRecord: 'Moja prijava',
    apply: 'Prijava na radionicu',
    pickAnother: 'Izaberi drugu radionicu',
    addToCalendar: '📅 Dodaj u kalendar',
    coming: '✅ Dolazim',
    notComing: '❌ Ne mogu',
    rating: (n: number) => `${n} ⭐`,
    bookAgain: 'Prijavi se ponovo',
    book: 'Prijavi se',
    otherDates: 'Drugi datumi',
  },
};

const replies: BotTexts['replies'] = {
  commands: [
    { command: 'start', description: 'Početak i prijava na kulinarsku radionicu' },
    { command: 'my', description: 'Moje prijave' },
    { command: 'cancel', description: 'Otkaži prijavu' },
    { command: 'language', description: 'Jezik' },
    { command: 'help', description: 'Pomoć' },
    { command: 'mydata', description: 'Moji podaci: šta se čuva o meni' },
    { command: 'forget', description: 'Obriši moje podatke' },
  ],
  menuButton: 'Prijava',
  start: (businessName: string, withButton: boolean) =>
    [
      `Zdravo! Ovo je bot „${e(businessName)}“ 👩‍🍳`,
      '',
      'Ovde se možete prijaviti na kulinarsku radionicu, videti svoje prijave i otkazati prijavu.',
      ...(withButton ? ['', 'Pritisnite „Prijava na radionicu“ da izaberete datum.'] : []),
      '',
      '/my — moje prijave',
      '/cancel — otkaži prijavu',
      '/language — jezik',
      '/help — pomoć',
    ].join('\n'),
  help: (businessName: string) =>
    [
      `<b>${e(businessName)}</b>: prijave na kulinarske radionice.`,
      '',
      '/start — prijava na radionicu',
      '/my — moje predstojeće prijave (svaka ima svoje dugme: promena broja osoba, otkazivanje, vraćanje)',
      '/cancel — otkaži prijavu',
      '/language — jezik bota',
      '/mydata — koji vaši podaci se čuvaju (sa JSON fajlom)',
      '/forget — obriši vaše podatke',
      '/help — ova pomoć',
      '',
      'Kada se prijavite, poslaću potvrdu, a ako nema mesta, bićete na listi čekanja i javiću vam čim se mesto oslobodi.',
    ].join('\n'),
  unknown: 'Razumem komande /start, /my, /cancel, /language i /help.',
  buttonGone: 'Ovo dugme više ne radi. Pošaljite komandu ponovo.',
  error: common.error,
  language: {
    ask: 'Izaberite jezik bota:',
    set: 'Gotovo: pisaću vam na srpskom.',
    setToast: 'Srpski',
  },
  my: {
    empty: 'Još nemate predstojećih prijava.',
    head: 'Vaše predstojeće prijave:',
    item: (i: number, workshop: string, date: string, state: string, peopleCount: number) =>
      `${i + 1}. ${q(workshop)}, ${date}\n    ${state} · ${people(peopleCount)}`,
    button: (i: number, workshop: string, shortDate: string) => `${i + 1}. ${workshop}, ${shortDate}`,
    queuedAt: (position: number) => `${common.state.QUEUED} (mesto ${position})`,
    leaveQueueButton: (i: number) => `Napusti listu čekanja: ${i + 1}`,
  },
  cancel: {
    none: 'Nemate predstojećih prijava koje se mogu otkazati.',
    pick: 'Koju prijavu da otkažemo?',
    pickButton: (workshop: string, shortDate: string) => `${workshop}, ${shortDate}`,
    abortButton: 'Ne otkazuj',
    pickAgain: 'Izaberite prijavu dugmetom iznad ili pritisnite „Ne otkazuj“.',
    notYours: 'Ova prijava nije dostupna. Izaberite prijavu dugmetom iznad.',
    askReason: (workshop: string, date: string) =>
      `Otkazujemo prijavu na ${q(workshop)}, ${date}.\n\nNapišite, molimo, razlog otkazivanja u jednoj poruci.`,
    reasonAgain: 'Napišite razlog otkazivanja tekstom (do 1000 znakova).',
    confirm: (workshop: string, date: string, reason: string) =>
      `Otkazati prijavu na ${q(workshop)}, ${date}?\n\nRazlog: ${e(reason)}`,
    yesButton: 'Da, otkaži',
    noButton: 'Ne',
    confirmAgain: 'Pritisnite „Da, otkaži“ ili „Ne“.',
    done: '❌ Prijava je otkazana. Ako se predomislite, možete je vratiti na stranici prijave (/my).',
    doneToast: 'Prijava otkazana',
    kept: 'U redu, prijava ostaje.',
    failed: (detail: string) => `Prijava nije otkazana: ${e(detail)}`,
  },
  link: {
    done: (email: string) =>
      `✅ Gotovo! Obaveštenja za ${e(email)} će sada stizati u ovaj čet.\nMožete ih isključiti u profilu (Настройки → Профиль).`,
    invalid: 'Link nije važeći ili je istekao. Novi dobijate u profilu (Настройки → Профиль).',
  },
  journey: {
    notYours: 'Ova prijava nije dostupna.',
    confirmedToast: 'Hvala, čekamo vas!',
    confirmed: (workshop: string, date: string) =>
      `✅ Potvrdili ste da dolazite na radionicu ${q(workshop)}, ${date}.\n\nČekamo vas!`,
    cantCome: (workshop: string, date: string) =>
      `Ne možete da dođete na radionicu ${q(workshop)}, ${date}?\n\nPrijavu možete otkazati ili predati mesto prijatelju.`,
    cancelButton: 'Otkazati prijavu?',
    giftButton: '🎁 Predaj mesto prijatelju',
    backButton: '← Nazad',
    cancelledToast: 'Prijava otkazana',
    cancelled: (workshop: string, date: string) =>
      `❌ Prijava na radionicu ${q(workshop)}, ${date}, je otkazana.\n\nAko se predomislite, možete je vratiti na stranici prijave.`,
    giftLink: (workshop: string, date: string, link: string) =>
      [
        `🎁 Link za prijatelja na radionicu ${q(workshop)}, ${date}:`,
        '',
        e(link),
        '',
        'Link važi jednom i do početka radionice. Prijatelj ga otvori, upiše svoje ime i preuzme vaše mesto; javićemo vam kada se to desi.',
      ].join('\n'),
    giftSendButton: '📨 Pošalji prijatelju',
    giftShareText: (workshop: string) => `Predajem ti svoje mesto na radionici „${workshop}“`,
    giftStart: '🎁 Neko vam predaje mesto na radionici! Pritisnite „Prihvati mesto“ da vidite detalje i potvrdite.',
    giftStartNoApp: '🎁 Neko vam predaje mesto na radionici, ali aplikacija trenutno nije dostupna. Pokušajte kasnije.',
    giftAcceptButton: 'Prihvati mesto',
    ratedToast: 'Hvala na oceni!',
    rated: (workshop: string, rating: number) =>
      `🙏 Hvala na oceni radionice ${q(workshop)}: ${'⭐'.repeat(rating)}\n\nRado ćemo vas ponovo videti!`,
    leaveQueueAsk: (workshop: string, date: string) => `Napustiti listu čekanja za radionicu ${q(workshop)}, ${date}?`,
    leaveQueueYesButton: 'Da, napusti listu',
    leaveQueueNoButton: 'Ne',
    leaveQueueKept: 'U redu, ostajete na listi čekanja.',
    notQueued: 'Prijava više nije na listi čekanja.',
    leftQueueToast: 'Napustili ste listu čekanja',
    leftQueue: (workshop: string, date: string) => `Napustili ste listu čekanja za radionicu ${q(workshop)}, ${date}.`,
    offerHead: 'Ove radionice trenutno nemaju slobodnih datuma. Da vam javim kada se pojave novi?',
    offerButton: (title: string) => `🔔 Javi mi nove datume: ${title.length > 40 ? `${title.slice(0, 39)}…` : title}`,
    subscribedToast: 'Gotovo! Javiću nove datume',
    subscribed: (title: string) =>
      `🔔 Gotovo! Čim se pojavi novi datum radionice${title ? ` ${q(title)}` : ''}, javiću vam.`,
  },
  personalData: {
    title: '<b>Vaši podaci kod nas</b>',
    telegramId: (id: number) => `Telegram ID: <code>${id}</code>`,
    staffAccount: (email: string) => `Nalog zaposlenog: ${e(email)}`,
    bookings: (n: number) => (n ? `📋 Prijave (${n}):` : '📋 Nema prijava.'),
    booking: (i: number, workshop: string, date: string, state: string) =>
      `${i + 1}. ${q(workshop)}, ${date}: ${common.state[state as keyof typeof common.state] ?? e(state)}`,
    person: (b: { name: string; last_name: string | null; telegram_login: string | null; people_count: number }) =>
      [
        fullName(b),
        ...(b.telegram_login ? [`@${e(b.telegram_login.replace(/^@/, ''))}`] : []),
        people(b.people_count),
      ].join(' · '),
    allergy: (type: string | null) => `alergija: ${e(type ?? 'da')}`,
    comment: (comment: string) => `komentar: ${e(comment)}`,
    confirmed: 'na podsetnik odgovoreno „Dolazim“',
    rating: (rating: number) => `ocena: ${rating}`,
    subscriptions: (workshops: string[]) =>
      workshops.length
        ? `🔔 Javi mi nove datume: ${workshops.map((w) => q(w)).join(', ')}`
        : '🔔 Nema prijava za nove datume.',
    staffNote: (note: string) => `📝 Beleška studija o vama: ${e(note)}`,
    fileNote: 'Sve što se čuva (sa istorijom izmena prijava) nalazi se u fajlu ispod.',
    forgetHint: 'Brisanje vaših podataka: /forget',
    fileName: 'mydata.json',
    fileCaption: 'Vaši podaci u JSON formatu',
    forgetAsk: (upcoming: number, staffEmail: string | null, money: ErasureMoneyText) =>
      [
        '<b>Obrisati vaše lične podatke?</b>',
        '',
        upcoming > 0
          ? `Vaše predstojeće prijave (${upcoming}) biće otkazane, a mesta idu sledećima na listi čekanja.`
          : 'Nemate predstojećih prijava.',
        'U svim vašim prijavama biće obrisani ime, Telegram nalog, komentar i podaci o alergiji; takođe i prijave za nove datume, beleška studija o vama i nezavršeni razgovori sa botom.',
        'Broj osoba i datumi ostaju u statistici studija bez vašeg imena.',
        ...(money.credit > 0 ? [`Vaše stanje u studiju: ${rsd(money.credit)}.`] : []),
        ...(money.paid > 0 ? [`Plaćeno za predstojeće prijave: ${rsd(money.paid)}.`] : []),
        ...(money.owed > 0
          ? [
              `Posle brisanja studio će vam dugovati ${rsd(money.owed)}, ali više neće znati da ste to vi. Da biste dobili novac, prvo zamolite studio da vam ga vrati, pa onda obrišite podatke.`,
            ]
          : []),
        ...(staffEmail ? [`Obaveštenja zaposlenog ${e(staffEmail)} više neće stizati u ovaj čet.`] : []),
        '',
        'Ovo se ne može poništiti.',
      ].join('\n'),
    forgetYes: 'Da, obriši moje podatke',
    forgetNo: 'Ne, zadrži',
    forgetDone: (cancelled: number, owed: number) =>
      [
        '🗑 Gotovo: vaši lični podaci su obrisani.',
        ...(cancelled > 0 ? [`Otkazano predstojećih prijava: ${cancelled}.`] : []),
        ...(owed > 0 ? [`Studio vam duguje ${rsd(owed)}: javite se studiju da vam ih vrati.`] : []),
        'Da se ponovo prijavite, samo otvorite bota: /start',
      ].join('\n'),
    forgetDoneToast: 'Podaci obrisani',
    forgetKept: 'U redu, ništa ne brišemo.',
  },
};

const money: BotTexts['money'] = {
  price: (amount: number) => `💰 Cena: ${rsd(amount)}`,
  paid: (amount: number) => `Plaćeno: ${rsd(amount)}`,
  fromCredit: (amount: number) => `Sa vašeg stanja u studiju skinuto je ${rsd(amount)}.`,
  payBy: (amount: number, until: string) =>
    `Da mesta ostanu vaša, platite ${rsd(amount)} do ${until}, inače se prijava otkazuje.`,
  dueAtStudio: (amount: number) => `Za plaćanje u studiju: ${rsd(amount)}.`,
  toCredit: (amount: number) =>
    `Uplaćenih ${rsd(amount)} prebačeno je na vaše stanje u studiju: uračunaće se u sledeću prijavu.`,
  refundOwed: (amount: number) => `Studio će vam vratiti ${rsd(amount)}.`,
  nothingOwed: 'Za ovu prijavu ništa ne treba ni platiti ni vratiti.',
  received: (amount: number, workshop: string) =>
    `✅ Uplata od ${rsd(amount)} za radionicu ${q(workshop)} je primljena. Hvala!`,
  receivedLate: (amount: number, workshop: string) =>
    `Uplata od ${rsd(amount)} je stigla, ali prijava na radionicu ${q(workshop)} više ne čeka uplatu: novac je prebačen na vaše stanje u studiju.`,
  unbooked: (amount: number, balance: number) =>
    `Uplata od ${rsd(amount)} je stigla, ali ono za šta je bila više ne postoji: novac je prebačen na vaše stanje u studiju (sada ${rsd(balance)}). Uračunaće se u sledeću prijavu; da biste ga dobili nazad, pišite studiju.`,
  payButton: (amount: number) => `💳 Plati ${rsd(amount)}`,
  holdExpiredHint: 'Mesta su ponovo slobodna za druge. Možete se ponovo prijaviti dok ima mesta.',
  invoiceTitle: 'Plaćanje radionice',
  checkFailed: 'Prijava nije proverena. Pokušajte ponovo za minut',
};

const business: BotTexts['business'] = {
  head: 'Zdravo! Ovo je automatski odgovor studija: javiće vam se neko čim se oslobodi.',
  sessionsHead: 'Najbliže radionice sa slobodnim mestima:',
  session: (workshop: string, date: string, seats: number) =>
    `• ${q(workshop)}, ${date}: ${seats} ${pluralIn(locale, seats, { one: 'mesto', few: 'mesta', other: 'mesta' })}`,
  noSessions: 'Trenutno nema slobodnih mesta, ali novi datumi se redovno pojavljuju.',
  bookHint: 'Prijaviti se možete u aplikaciji preko dugmeta ispod.',
  button: 'Prijava na radionicu',
};

const places = (n: number) => `${n} ${pluralIn(locale, n, { one: 'mesto', few: 'mesta', other: 'mesta' })}`;
const certificates: BotTexts['certificates'] = {
  ready: (amount) => `🎁 Vaš poklon-sertifikat na ${rsd(amount)} je spreman!`,
  readyPlaces: (n) => `🎁 Vaš poklon-sertifikat za ${places(n)} na bilo kojoj radionici je spreman!`,
  code: (code) => `Kod: <code>${e(code)}</code>`,
  recipient: (name) => `Za: ${e(name)}`,
  greeting: (text) => `„${e(text)}“`,
  balance: (amount) => `Preostalo: ${rsd(amount)}`,
  balancePlaces: (n) => `Preostalo: ${places(n)} na bilo kojoj radionici`,
  validUntil: (until) => `Važi do ${until}`,
  howToUse:
    'Da njime platite radionicu, pri prijavi u aplikaciji izaberite „Imam poklon-sertifikat“ i unesite kod. Da ga poklonite, dodirnite „Pokloni sertifikat“ ili prosledite ovu poruku.',
  opened: 'Poklon-sertifikat',
  openedHint: 'Prijavite se na radionicu u aplikaciji: sertifikat plaća prijavu do iznosa koji je preostao.',
  openedHintPlaces:
    'Prijavite se na radionicu u aplikaciji: sertifikat plaća po jedno mesto za svakog učesnika prijave.',
  expiring: (code, amount, until) =>
    `⏳ Na poklon-sertifikatu ${e(code)} je preostalo ${rsd(amount)}. Važi do ${until}: prijavite se na radionicu na vreme!`,
  expiringPlaces: (code, n, until) =>
    `⏳ Na poklon-sertifikatu ${e(code)} je preostalo ${places(n)} na bilo kojoj radionici. Važi do ${until}: prijavite se na vreme!`,
  share: (amount, code) => `🎁 Poklanjam ti poklon-sertifikat na ${rsd(amount)} za radionicu! Kod: ${code}`,
  sharePlaces: (n, code) => `🎁 Poklanjam ti poklon-sertifikat za ${places(n)} na bilo kojoj radionici! Kod: ${code}`,
  buttons: { card: '🎁 Otvori sertifikat', book: 'Prijava sa sertifikatom', share: '📨 Pokloni sertifikat' },
};

export const bot: BotTexts = { common, customer, replies, money, business, certificates, receipts };
