import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

// Component tests (happy-dom): unmount what each test rendered.
afterEach(() => cleanup());
