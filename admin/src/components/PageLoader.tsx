import { Center, Loader } from '@mantine/core';

export function PageLoader({ h = '40vh' }: { h?: string | number }) {
  return (
    <Center h={h} aria-busy="true">
      <Loader color="teal" aria-label="Загрузка" />
    </Center>
  );
}
