import { QueryClientProvider } from '@tanstack/react-query';
import { ApiProvider, useAuthState } from '../api/index.js';
import { AppShell } from './app-shell.js';
import { NavigationProvider } from './navigation.js';
import type { ConsoleServices } from './services.js';
import { ToastProvider } from './toasts.js';
import { TokenScreen } from './token-screen.js';
import { LanguageProvider } from '../i18n/language-provider.js';

export function App({ services }: { services: ConsoleServices }) {
  return (
    <ApiProvider value={{ client: services.client, auth: services.auth, adoptToken: services.adoptToken, managed: services.managed, manageAgent: services.manageAgent }}>
      <QueryClientProvider client={services.queryClient}>
        <LanguageProvider>
          <Gate />
        </LanguageProvider>
      </QueryClientProvider>
    </ApiProvider>
  );
}

function Gate() {
  const auth = useAuthState();
  if (auth !== 'ok') return <TokenScreen reason={auth} />;
  return (
    <NavigationProvider>
      <ToastProvider>
        <AppShell />
      </ToastProvider>
    </NavigationProvider>
  );
}
