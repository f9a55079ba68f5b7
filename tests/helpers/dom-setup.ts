import { afterAll, afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// Component tests (happy-dom): unmount what each test rendered.
afterEach(() => cleanup());

// telegram-ui's ripple sets state from timers (70 ms + 225 ms) it does not clear on unmount; let
// them run out while the DOM still exists, instead of firing into a torn-down environment.
afterAll(() => new Promise((resolve) => setTimeout(resolve, 400)));
