"""vit-grader: grade Vision Transformer exercises (lecture 4.2) against a numpy reference ViT."""
