import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EmbedFacade } from './EmbedFacade';

function renderFacade() {
  return render(
    <EmbedFacade
      className="test-embed"
      name="Plan d'accès"
      provider="Un fournisseur"
      showLabel="Afficher le plan"
      directUrl="https://maps.example.org/?q=studio"
      directLabel="Ouvrir le plan"
    >
      <iframe title="Le plan" src="https://maps.example.org/embed" />
    </EmbedFacade>,
  );
}

describe('EmbedFacade', () => {
  it('renders no frame until asked, and says what it is and who provides it', () => {
    renderFacade();
    expect(screen.queryByTitle('Le plan')).not.toBeInTheDocument();
    const facade = screen.getByRole('group', { name: "Plan d'accès" });
    expect(facade).toHaveTextContent(
      "Fourni par Un fournisseur : rien n'est chargé depuis ce service avant votre clic.",
    );
    const direct = screen.getByRole('link', { name: 'Ouvrir le plan (nouvel onglet)' });
    expect(direct).toHaveAttribute('href', 'https://maps.example.org/?q=studio');
    expect(direct).toHaveAttribute('target', '_blank');
  });

  it('shows the frame in the same box on a click, and keeps the direct link under it', async () => {
    const { container } = renderFacade();
    const box = container.querySelector('.test-embed .embed__box');
    await userEvent.click(screen.getByRole('button', { name: 'Afficher le plan' }));
    const frame = screen.getByTitle('Le plan');
    expect(box).toContainElement(frame);
    expect(screen.queryByRole('group', { name: "Plan d'accès" })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ouvrir le plan (nouvel onglet)' })).toBeInTheDocument();
  });
});
