import { afterAll, afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// Lazily loaded pages and chunks take longer than testing-library's 1 s default on a busy 2-core
// machine; a real regression still fails, only later.
configure({ asyncUtilTimeout: 5000 });

// Component tests (happy-dom): unmount what each test rendered.
afterEach(() => cleanup());

// telegram-ui's ripple sets state from timers (70 ms + 225 ms) it does not clear on unmount; let
// them run out while the DOM still exists, instead of firing into a torn-down environment.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 400)));
