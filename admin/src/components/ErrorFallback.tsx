import { useState } from 'react';
import { Button, Code, Stack, Text, Title } from '@mantine/core';

/** The generic fallback error view. */
export function ErrorFallback({ error }: { error: Error }) {
  const [shown, setShown] = useState(false);
  return (
    <Stack align="center" justify="center" gap="md" p="xl" mih="60vh" role="alert">
      <Title order={2}>Something went wrong!</Title>
      <Button variant="light" onClick={() => setShown((s) => !s)}>
        {shown ? 'Hide Error' : 'Show Error'}
      </Button>
      {shown && (
        <Code block maw={640} w="100%" style={{ whiteSpace: 'pre-wrap' }}>
          <Text span size="sm">
            {error.message}
          </Text>
        </Code>
      )}
    </Stack>
  );
}
