import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { createConsoleServices } from './app/services.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/pages.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <App services={createConsoleServices(window)} />
  </StrictMode>,
);
