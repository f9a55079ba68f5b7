import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Drawer.css';
import '@mantine/core/styles/Overlay.css';
import { useEffect, useState } from 'react';
import { Drawer } from '@mantine/core';
import { Brand, Navigation } from './Navigation';

/** The sidebar as a drawer on small screens. Mounted when the burger is pressed. */
export default function MobileMenu({ onClose }: { onClose: () => void }) {
  const [opened, setOpened] = useState(false);
  // Open on the frame after mounting, so the drawer slides in.
  useEffect(() => {
    const frame = requestAnimationFrame(() => setOpened(true));
    return () => cancelAnimationFrame(frame);
  }, []);
  return (
    <Drawer
      opened={opened}
      onClose={() => setOpened(false)}
      onExitTransitionEnd={onClose}
      size={280}
      title={<Brand />}
      hiddenFrom="sm"
      aria-label="Меню"
    >
      <div style={{ height: 'calc(100dvh - 90px)', display: 'flex', flexDirection: 'column' }}>
        <Navigation onNavigate={() => setOpened(false)} />
      </div>
    </Drawer>
  );
}
