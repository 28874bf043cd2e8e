import { useLocation, useNavigate, useParams } from 'react-router';
import { BoltsScreen } from './BoltsScreen.tsx';
import { SUCCESS_REDIRECT_PATH, UploadFilesModal } from './upload/UploadFilesModal.tsx';

/** /updatebolt/:name? — the upload modal over the bolts list. */
export function UpdateBoltScreen() {
  const { name = '' } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <>
      <BoltsScreen />
      <UploadFilesModal
        key={name}
        repo={name}
        onClosed={() => {
          // Back where the user came from; straight to the bolts when the modal was the entry.
          if (location.key === 'default') void navigate('/bolt', { replace: true });
          else void navigate(-1);
        }}
        onFinished={(landed) => void navigate(SUCCESS_REDIRECT_PATH, { state: { landed } })}
      />
    </>
  );
}
