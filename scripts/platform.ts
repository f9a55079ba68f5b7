import path from 'node:path';
import { loadConfigOrExit } from '../server/startup';
import { ensureFirstSuperuser } from '../core/staff/users';
import { openPlatformStore } from '../platform/store';
import { createServers, createStudio, migrateStudios, openStudioDatabase, slugOf } from '../platform/studios';
import { moveStudio } from '../platform/move';
import { writeArchive } from '../platform/studio-archive';

// `npm run platform -- <command>` on a platform deployment (PLATFORM=true), beside its running instances:
//   list                         the studios, where each lives and its state
//   create <slug> <name>         a studio with its first superuser (FIRST_SUPERUSER, the password printed)
//   migrate                      every studio behind the code's version (a deploy does it at start too)
//   move <slug> <server>         a studio to another PostgreSQL server of PLATFORM_DATABASES
//   export <slug> <file>         one archive of a studio's data (gzip'ed JSON lines)
const USAGE = 'expected one of: list | create <slug> <name> | migrate | move <slug> <server> | export <slug> <file>';
const fail = (message: string): never => {
  console.error(message);
  process.exit(1);
};
const config = loadConfigOrExit();
if (!config.platform.enabled)
  fail('PLATFORM is not true: this deployment is one studio; npm run platform manages a platform');
const [command, ...args] = process.argv.slice(3);
const store = await openPlatformStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const servers = createServers(config.platform.databases, { poolSize: 4 });
const studioNamed = async (slug: string) => {
  const studio = await store.db.selectFrom('studios').selectAll().where('slug', '=', slug).executeTakeFirst();
  return studio ?? fail(`There is no studio "${slug}" (npm run platform -- list)`);
};

try {
  switch (command) {
    case 'list': {
      const rows = await store.db.selectFrom('studios').selectAll().orderBy('id').execute();
      for (const s of rows)
        console.log([s.id, s.slug, s.status, `${s.server}:${s.location}`, s.version, s.problem ?? ''].join('\t'));
      break;
    }
    case 'create': {
      const [slug, ...name] = args;
      if (!slug || name.length === 0) fail(`create: ${USAGE}`);
      const studio = await createStudio(store, servers, config.dataDir, {
        slug: slugOf(slug),
        name: name.join(' '),
        timezone: config.businessTimezone,
        ownerTelegramId: null,
      });
      const database = openStudioDatabase(studio, servers, config.dataDir);
      const first = await ensureFirstSuperuser(database, {
        email: config.firstSuperuser,
        password: config.firstSuperuserPassword,
      });
      await database.close();
      console.log(`Studio ${studio.slug} created: ${config.publicUrl}/s/${studio.slug}/login`);
      if (first?.generated) console.log(`${first.email}  password: ${first.password}  (shown this once)`);
      break;
    }
    case 'migrate': {
      const { migrated, failed } = await migrateStudios(store, servers, config.dataDir);
      console.log(`${migrated} studios migrated`);
      for (const f of failed) console.error(`${f.slug}: ${f.problem}`);
      if (failed.length > 0) process.exitCode = 1;
      break;
    }
    case 'move': {
      const [slug, target] = args;
      if (!slug || !target) fail(`move: ${USAGE}`);
      const studio = await studioNamed(slug);
      const r = await moveStudio(store, servers, config.dataDir, studio.id, target);
      console.log(`Studio ${slug} moved to ${target}; its bookings waited ${r.frozenMs} ms`);
      break;
    }
    case 'export': {
      const [slug, file] = args;
      if (!slug || !file) fail(`export: ${USAGE}`);
      const studio = await studioNamed(slug);
      const database = openStudioDatabase(studio, servers, config.dataDir);
      await writeArchive(database, path.resolve(file));
      await database.close();
      console.log(`Studio ${slug} exported to ${path.resolve(file)}`);
      break;
    }
    default:
      fail(`${command ? `Unknown command "${command}"` : 'No command'}: ${USAGE}`);
  }
} finally {
  await servers.close();
  await store.close();
}
